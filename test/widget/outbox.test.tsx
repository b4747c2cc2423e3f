import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { messages, pending } from "../../widget/src/app/state/conversation";
import { flush, queueText, retry } from "../../widget/src/app/state/outbox";
import { online } from "../../widget/src/app/state/ui";
import { fakeApi, message, returningVisitor, settle } from "./support";

const CONVERSATION = "/inboxes/inbox-1/contacts/src-1/conversations/9";

type Sent = { content: string; echo_id: string };

/** A server that stores messages (by POST) and lists them back (by GET). */
function server(options: { dropAnswers?: number; refuse?: number } = {}) {
  const stored: ReturnType<typeof message>[] = [];
  let drops = options.dropAnswers ?? 0;
  const calls = fakeApi((method, path, body) => {
    if (method === "POST" && path === `${CONVERSATION}/messages`) {
      if (options.refuse) {
        return new Response(JSON.stringify({ error: "nope", code: "validation_failed" }), {
          status: options.refuse,
        });
      }
      const { content, echo_id } = body as Sent;
      const m = message({ content, echo_id, message_type: 0, seq: stored.length + 1 });
      stored.push(m);
      if (drops > 0) {
        drops--;
        throw new TypeError("Failed to fetch");
      }
      return m;
    }
    if (method === "GET" && path.startsWith(`${CONVERSATION}/messages`)) {
      return stored;
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  return { stored, posts: () => calls.filter((c) => c.method === "POST"), calls };
}

beforeEach(returningVisitor);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("the outbox", () => {
  it("sends queued messages in order and replaces them with the server's", async () => {
    const api = server();
    queueText("first");
    queueText("second");
    await vi.waitFor(() => expect(pending.value).toEqual([]));
    expect(api.posts().map((c) => (c.body as Sent).content)).toEqual(["first", "second"]);
    expect(messages.value.map((m) => m.content)).toEqual(["first", "second"]);
  });

  it("holds messages while offline and sends them when back, each once", async () => {
    const api = server();
    online.value = false;
    queueText("typed offline");
    await settle();
    expect(api.calls).toEqual([]);
    expect(pending.value.map((p) => p.state)).toEqual(["queued"]);
    online.value = true;
    await flush();
    await flush();
    expect(api.stored.map((m) => m.content)).toEqual(["typed offline"]);
    expect(pending.value).toEqual([]);
  });

  it("checks for its echo_id before sending again after an answer was lost", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const api = server({ dropAnswers: 1 });
    queueText("maybe sent");
    await vi.waitFor(() => expect(pending.value[0]?.uncertain).toBe(true));
    await vi.advanceTimersByTimeAsync(2000);
    await vi.waitFor(() => expect(pending.value).toEqual([]));
    expect(api.stored.map((m) => m.content)).toEqual(["maybe sent"]);
    expect(api.posts()).toHaveLength(1);
    expect(messages.value.map((m) => m.content)).toEqual(["maybe sent"]);
  });

  it("marks a refused message failed, and retries it on demand", async () => {
    const api = server({ refuse: 422 });
    queueText("refused");
    await vi.waitFor(() => expect(pending.value[0]?.state).toBe("failed"));
    expect(api.posts()).toHaveLength(1);
    retry(pending.value[0]?.echo_id as string);
    await vi.waitFor(() => expect(api.posts()).toHaveLength(2));
  });

  it("keeps unsent messages across a reload (in storage)", async () => {
    online.value = false;
    queueText("survives");
    const stored = JSON.parse(localStorage.getItem("parley:inbox-1:outbox") ?? "[]");
    expect(stored).toEqual([expect.objectContaining({ content: "survives", state: "queued" })]);
  });
});
