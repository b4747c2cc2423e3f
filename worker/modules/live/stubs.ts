import type { Bindings } from "../../env";
import type { AccountFeed } from "../../realtime/account-feed";

export type FeedStub = Pick<AccountFeed, "publish" | "fetch">;

/** One feed per account. */
export function feedFor(env: Bindings, accountId: number): FeedStub {
  return env.FEEDS.get(env.FEEDS.idFromName(`account:${accountId}`)) as unknown as FeedStub;
}
