import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Db } from "../db/client";
import type { AccountRow } from "../db/schema";
import { TtlCache } from "../lib/ttl-cache";
import { type Actor, resolveToken } from "../modules/access-tokens/service";
import type { AccountRole, AppEnv } from "./context";

/**
 * How long an isolate trusts what it read about a token: its owner, and the owner's account and
 * role. Every D1 round trip saved here is one per API call, the hot path of agents and bots. A
 * write that can change those (a token reset, a role, a membership, a suspended account) clears
 * this isolate's entries at once; other isolates follow within AUTH_TTL_MS.
 */
const AUTH_TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

type Scope = { account: AccountRow; role: AccountRole };

const tokens = new TtlCache<Actor>(AUTH_TTL_MS, MAX_ENTRIES);
/** Keyed by token and account id: what this token may do in that account. */
const scopes = new TtlCache<Scope>(AUTH_TTL_MS, MAX_ENTRIES);

export const authCache = {
  /** The token's owner; unknown tokens are looked up every time (nothing to gain from them). */
  async actor(db: Db, token: string): Promise<Actor | null> {
    const known = tokens.get(token);
    if (known) {
      return known;
    }
    const actor = await resolveToken(db, token);
    if (actor) {
      tokens.set(token, actor);
    }
    return actor;
  },
  /** What the token may do in the account; `load` answers (or throws) when it is not known. */
  async scope(token: string, accountId: number, load: () => Promise<Scope>): Promise<Scope> {
    const key = `${token}\n${accountId}`;
    const known = scopes.get(key);
    if (known) {
      return known;
    }
    const scope = await load();
    scopes.set(key, scope);
    return scope;
  },
  clear(): void {
    tokens.clear();
    scopes.clear();
  },
};

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Account-API writes that cannot change who anyone is or what they may do: the hot path of a
 * conversation. Every other write clears the cache, so a new kind of write is safe by default.
 */
const AUTH_NEUTRAL_WRITES = [
  /^\/api\/v1\/accounts\/\d+\/conversations\/\d+\/(messages|toggle_typing_status|update_last_seen)$/,
];

const neutral = (c: Context<AppEnv>) =>
  READS.has(c.req.method) ||
  c.req.path.startsWith("/public/") ||
  AUTH_NEUTRAL_WRITES.some((re) => re.test(c.req.path));

/** Forgets this isolate's auth shortcuts after any write that might have changed them. */
export const forgetAuthAfterWrites = createMiddleware<AppEnv>(async (c, next) => {
  try {
    await next();
  } finally {
    if (!neutral(c)) {
      authCache.clear();
    }
  }
});
