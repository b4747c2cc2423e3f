// A returning visitor's conversation loads even when the first request for it is refused: the
// chat used to wait for an "online" event that never came, and showed no history (and opened
// no socket) for the rest of the page's life.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, message } from "./support";

const CONVERSATION = "/inboxes/inbox-1/contacts/src-1/conversations/9";

/** A socket that never opens: these tests are about the history's HTTP request. */
class QuietSocket {
  static readonly OPEN = 1;
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  send() {}
  close() {}
}

/** A fresh app, as on a new page, for a visitor whose session has conversation 9. */
async function app() {
  localStorage.setItem(
    "parley:inbox-1:session",
    JSON.stringify({
      sourceId: "src-1",
      pubsubToken: "t",
      identifier: null,
      email: null,
      conversationId: 9,
    }),
  );
  vi.resetModules();
  const [{ configure }, chat, conversation] = await Promise.all([
    import("../../widget/src/app/config"),
    import("../../widget/src/app/state/chat"),
    import("../../widget/src/app/state/conversation"),
  ]);
  configure("#inbox=inbox-1", "en");
  return { ...chat, ...conversation };
}

/** The inbox, and conversation 9 answered by `answers` in turn (then by its history). */
function server(answers: (() => Response)[]) {
  return fakeApi((method, path) => {
    if (path === "/inboxes/inbox-1") {
      return { locale: null, widget_color: "#1f93ff" };
    }
    if (method === "GET" && path === CONVERSATION) {
      return (
        answers.shift()?.() ?? {
          id: 9,
          status: "open",
          contact_last_seen_at: 0,
          agent_last_seen_at: 0,
          messages: [message({ id: 1, content: "earlier", conversation_id: 9 })],
        }
      );
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const refused =
  (status: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ error: "refused", code: "refused" }), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });

const historyCalls = (calls: { path: string }[]) =>
  calls.filter((c) => c.path === CONVERSATION).length;

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal("WebSocket", QuietSocket);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a stored conversation's history", () => {
  it("loads once Retry-After has passed after a 429", async () => {
    const calls = server([refused(429, { "retry-after": "3" })]);
    const { startChat, messages, synced } = await app();
    await startChat();
    expect(synced.value).toBe(false);
    await vi.advanceTimersByTimeAsync(2900);
    expect(historyCalls(calls)).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    await vi.waitFor(() => expect(synced.value).toBe(true));
    expect(historyCalls(calls)).toBe(2);
    expect(messages.value.map((m) => m.content)).toEqual(["earlier"]);
  });

  it("tries again with a growing backoff after server errors", async () => {
    const calls = server([refused(503), refused(500)]);
    const { startChat, messages, synced } = await app();
    await startChat();
    await vi.advanceTimersByTimeAsync(1000); // the first backoff: 0.5-1 s
    expect(historyCalls(calls)).toBe(2);
    await vi.advanceTimersByTimeAsync(2000); // the second: 1-2 s
    await vi.waitFor(() => expect(synced.value).toBe(true));
    expect(historyCalls(calls)).toBe(3);
    expect(messages.value.map((m) => m.content)).toEqual(["earlier"]);
  });

  it("does not ask again after a refusal that will not change (403)", async () => {
    const calls = server([refused(403)]);
    const { startChat, synced } = await app();
    await startChat();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(historyCalls(calls)).toBe(1);
    expect(synced.value).toBe(false);
  });
});
