import type { AccountRow } from "../db/schema";
import type { Bindings } from "../env";
import type { Deps } from "../events/deps";
import type { AccountRole, Actor } from "../modules/access-tokens/service";

export type { AccountRole };

type BaseVariables = { requestId: string; deps: Deps };

export type AppEnv = { Bindings: Bindings; Variables: BaseVariables };

/** A user or agent bot, known by its token (the profile: no account in the path). */
export type ActorEnv = {
  Bindings: Bindings;
  Variables: BaseVariables & { actor: Actor };
};

/** Account API: a user or agent bot acting inside the account of the path. */
export type AccountEnv = {
  Bindings: Bindings;
  Variables: BaseVariables & { actor: Actor; account: AccountRow; role: AccountRole };
};

/** Platform API: a platform app. */
export type PlatformEnv = {
  Bindings: Bindings;
  Variables: BaseVariables & { platformAppId: number };
};
