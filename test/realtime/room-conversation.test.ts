import { describe, expect, it } from "vitest";
import type { ConversationRow } from "../../worker/db/schema";
import { RoomConversationCache } from "../../worker/modules/conversation-room/conversation-cache";

const row = (status: string) => ({ id: 1, status }) as unknown as ConversationRow;

describe("the room's copy of its conversation row", () => {
  it("reads once, and again after a published change drops it", async () => {
    const cache = new RoomConversationCache();
    let reads = 0;
    const load = async () => row(++reads === 1 ? "open" : "resolved");
    expect((await cache.get(load)).status).toBe("open");
    expect((await cache.get(load)).status).toBe("open");
    expect(reads).toBe(1);
    cache.drop();
    expect((await cache.get(load)).status).toBe("resolved");
    expect(reads).toBe(2);
  });

  it("never keeps a row read or written before a change it has not seen", async () => {
    const cache = new RoomConversationCache();
    let release: (r: ConversationRow) => void = () => {};
    const slow = cache.get(() => new Promise((r) => (release = r)));
    cache.drop(); // published while the read was in flight
    release(row("open"));
    await slow;
    const since = cache.mark();
    cache.drop(); // published while a write was in flight
    cache.wrote(row("open"), since);
    expect((await cache.get(async () => row("pending"))).status).toBe("pending");
    cache.wrote(row("snoozed"), cache.mark());
    expect((await cache.get(async () => row("never read"))).status).toBe("snoozed");
  });
});
