import type { Db } from "../db/client";
import type { Bindings } from "../env";
import type { EventBus } from "../events/bus";
import type { PerformedBy } from "../events/outbox-types";
import type { Outbound } from "../lib/outbound";
import type { Actor } from "../modules/access-tokens/service";
import type { AccountRow } from "../modules/accounts/queries";

/** Per-request services, built once in the `services` middleware. */
export type Deps = {
  db: Db;
  env: Bindings;
  now: () => number;
  /** Domain events of this request; flushed to their listeners after the handler. */
  events: EventBus;
  /** Who the outbox events of this unit of work are attributed to (automation loop guard). */
  performedBy: PerformedBy;
  /** The request's origin (for absolute file URLs in webhook payloads); "" outside requests. */
  origin: string;
  /** Outbound HTTP to webhook receivers and bots. */
  outbound: Outbound;
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
