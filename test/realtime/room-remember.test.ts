import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageRoom } from "../../worker/modules/conversation-room/room";
import { unique } from "../support/factories";

const scratch = () => env.ROOMS.get(env.ROOMS.idFromName(unique("remember")));

describe("the room's record of the conversation it serves", () => {
  it("is written when it changes, not with every typing call that brings it", async () => {
    const room = scratch();
    const writes = await runInDurableObject(room, async (instance: MessageRoom, state) => {
      const kv = state.storage.kv;
      const put = kv.put.bind(kv);
      const keys: string[] = [];
      kv.put = ((key: string, value: unknown) => {
        keys.push(key);
        return put(key, value);
      }) as typeof kv.put;
      const typer = { kind: "agent", id: 7, name: "Ada" } as never;
      const here = { accountId: 1, id: 42, inboxId: 3 };
      try {
        await instance.setTyping(typer, true, false, here);
        await instance.setTyping(typer, false, false, { ...here });
        await instance.setTyping(typer, true, false, { ...here });
        const same = keys.filter((k) => k === "conversation").length;
        // Moved to another inbox: the room must know.
        await instance.setTyping(typer, false, false, { ...here, inboxId: 4 });
        return {
          same,
          after: keys.filter((k) => k === "conversation").length,
          kept: kv.get("conversation"),
        };
      } finally {
        kv.put = put;
      }
    });
    expect(writes.same).toBe(1);
    expect(writes.after).toBe(2);
    expect(writes.kept).toEqual({ accountId: 1, id: 42, inboxId: 4 });
  });
});
