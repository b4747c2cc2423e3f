import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../worker/env";
import { ApiError } from "../../worker/lib/errors";
import { messageRequest, senderScope } from "../../worker/modules/socket-actions/send";
import { resolveSender } from "../../worker/modules/socket-actions/sender";
import type { SocketIdentity } from "../../worker/realtime/protocol";
import { roomConversation } from "../../worker/realtime/room-typing";
import { createPublicConversationRow, createPublicWorld } from "../support/factories-public";

/** A visitor's sender and conversation, as the room resolves them for a socket. */
async function visitor() {
  const w = await createPublicWorld();
  const { contact, row } = await createPublicConversationRow(w.base);
  const ref = roomConversation(row);
  const who: SocketIdentity = {
    role: "contact",
    kind: "contact",
    id: contact.id,
    name: "Ada",
    source: contact.source_id,
  };
  const sender = await resolveSender(env as Bindings, ref, who);
  return { ref, who, sender, row };
}

type Limit = { limit: (o: { key: string }) => Promise<{ success: boolean }> };

/** Two limiters; each answers only once both were asked (a second asked after the first's answer never is). */
function barrier(success: { contact: boolean; message: boolean }) {
  const asked: string[] = [];
  let release: () => void = () => {};
  const both = new Promise<void>((r) => {
    release = r;
  });
  const limiter = (name: "contact" | "message"): Limit => ({
    limit: async () => {
      asked.push(name);
      if (asked.length === 2) {
        release();
      }
      await both;
      return { success: success[name] };
    },
  });
  return { asked, contact: limiter("contact"), message: limiter("message") };
}

async function send(success: { contact: boolean; message: boolean }) {
  const v = await visitor();
  const limits = barrier(success);
  const limited = {
    ...(env as Bindings),
    PUBLIC_CONTACT_LIMITER: limits.contact,
    PUBLIC_MESSAGE_LIMITER: limits.message,
  } as unknown as Bindings;
  const scope = senderScope(limited, v.ref, v.who, v.sender);
  const frame = { type: "message.create" as const, echo_id: "e1", content: "hello" };
  // Asked one after the other, the first limiter would wait for ever: the test would time out.
  const answer = await Promise.race([
    messageRequest(scope, v.sender, v.row, frame).then(
      (req) => ({ req }),
      (err: unknown) => ({ err }),
    ),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("the limiters were not asked at once")), 20_000),
    ),
  ]);
  return { answer, asked: limits.asked };
}

describe("a visitor's socket message and the public API's limits", () => {
  it("asks the contact and the message limit at once, and goes on when both allow it", async () => {
    const { answer, asked } = await send({ contact: true, message: true });
    expect(asked.sort()).toEqual(["contact", "message"]);
    expect("req" in answer && answer.req.values.content).toBe("hello");
  }, 30_000);

  it("is refused with the contact limit's words when both refuse, as when it was asked first", async () => {
    const { answer } = await send({ contact: false, message: false });
    const err = "err" in answer ? (answer.err as ApiError) : null;
    expect(err).toBeInstanceOf(ApiError);
    expect(err?.code).toBe("rate_limited");
    expect(err?.message).toContain("for this contact");
  }, 30_000);

  it("is refused by the message limit alone", async () => {
    const { answer } = await send({ contact: true, message: false });
    const err = "err" in answer ? (answer.err as ApiError) : null;
    expect(err?.code).toBe("rate_limited");
    expect(err?.message).toContain("creating messages");
  }, 30_000);
});
