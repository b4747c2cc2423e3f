// Issue 15: an honest rate-limit status, the sender heard once, activity notes centred.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MessageList } from "../../widget/src/app/components/MessageList";
import { mergeMessages, messages, pending } from "../../widget/src/app/state/conversation";
import { queueText } from "../../widget/src/app/state/outbox";
import { fakeApi, message, returningVisitor, settle, show } from "./support";

const CONVERSATION = "/inboxes/inbox-1/contacts/src-1/conversations/9";

let view: ReturnType<typeof show> | undefined;

beforeEach(returningVisitor);

afterEach(() => {
  view?.cleanup();
  view = undefined;
  vi.unstubAllGlobals();
});

describe("a send held back by the rate limit", () => {
  it("says it will go shortly (not that the network is missing) and sends after Retry-After", async () => {
    let refusals = 1;
    const calls = fakeApi((method, path, body) => {
      if (method === "POST" && path === `${CONVERSATION}/messages`) {
        if (refusals-- > 0) {
          return new Response(JSON.stringify({ error: "slow down", code: "rate_limited" }), {
            status: 429,
            headers: { "retry-after": "1" },
          });
        }
        const { content, echo_id } = body as { content: string; echo_id: string };
        return message({ content, echo_id, message_type: 0, seq: 1, id: 50 });
      }
      throw new Error(`unexpected ${method} ${path}`);
    });
    view = show(() => <MessageList />);
    const started = Date.now();
    queueText("hello there");
    await vi.waitFor(() => expect(pending.value.map((p) => p.state)).toEqual(["limited"]));
    await settle();
    expect(view.root.textContent).toContain("Sending in a moment…");
    expect(view.root.textContent).not.toContain("Waiting for the network");
    await vi.waitFor(() => expect(messages.value.map((m) => m.content)).toEqual(["hello there"]), {
      timeout: 15_000,
    });
    // Not before the server's Retry-After.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(2);
    expect(pending.value).toEqual([]);
  });
});

describe("the message list", () => {
  it("names the sender of a run once to screen readers", async () => {
    view = show(() => <MessageList />);
    mergeMessages([message({ id: 1, seq: 1, content: "hi" })]);
    await settle();
    const sender = view.root.querySelector(".pw-sender");
    expect(sender?.textContent).toContain("Alan Agent");
    expect(sender?.getAttribute("aria-hidden")).toBe("true");
    const prefix = view.root.querySelector(".pw-bubble .pw-sr");
    expect(prefix?.textContent).toBe("Alan Agent: ");
    // A dir of its own keeps it out of the bubble's dir="auto" guess (an Arabic "You:" would
    // otherwise turn an English message right to left).
    expect(prefix?.getAttribute("dir")).toBe("auto");
  });

  it("shows an activity message as a centred note, without sender or bubble", async () => {
    view = show(() => <MessageList />);
    mergeMessages([
      message({ id: 1, seq: 1, content: "hi" }),
      message({
        id: 2,
        seq: 2,
        message_type: 2,
        sender: null,
        content: "Conversation was marked resolved by Ann",
      }),
    ]);
    await settle();
    const note = [...view.root.querySelectorAll(".pw-activity")].at(-1);
    expect(note?.textContent).toBe("Conversation was marked resolved by Ann");
    expect(note?.querySelector(".pw-bubble, .pw-sender")).toBeNull();
  });
});
