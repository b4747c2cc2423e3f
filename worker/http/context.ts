import type { Db } from "../db/client";
import type { Bindings } from "../env";
import type { EventBus } from "../events/bus";
import type { Actor } from "../modules/access-tokens/service";
import type { AccountRow } from "../modules/accounts/queries";

/** Per-request services, built once in the `services` middleware. */
export type Deps = {
  db: Db;
  env: Bindings;
  now: () => number;
  /** Domain events of this request; flushed to their listeners after the handler. */
  events: EventBus;
};

export type AccountRole = "administrator" | "agent" | "bot" | "contact";

type BaseVariables = { requestId: string; deps: Deps };

export type AppEnv = { Bindings: Bindings; Variables: BaseVariables };

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
