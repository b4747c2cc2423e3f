import type { Bindings } from "../../env";
import type { AccountFeed } from "../../realtime/account-feed";

export type FeedStub = Pick<AccountFeed, "publish" | "publishAll" | "fetch" | "track" | "revoke">;

/** The feed's Durable Object id: one feed per account. */
export const feedIdFor = (env: Bindings, accountId: number) =>
  env.FEEDS.idFromName(`account:${accountId}`);

/** One feed per account. */
export function feedFor(env: Bindings, accountId: number): FeedStub {
  return env.FEEDS.get(feedIdFor(env, accountId)) as unknown as FeedStub;
}
