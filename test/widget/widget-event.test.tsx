import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, message, settle } from "./support";

const HOST_PAGE = "https://shop.example/pricing?plan=pro";
const NOW = new Date("2026-03-04T05:06:07.890Z");
const contactPath = (sourceId: string) => `/inboxes/inbox-1/contacts/${sourceId}`;

/** The inbox (in `locale`), a new visitor's contact and conversation; `events` answers opens. */
function server(options: { locale?: string; events?: () => unknown } = {}) {
  return fakeApi((method, path, body) => {
    if (path === "/inboxes/inbox-1") {
      return { locale: options.locale ?? null, widget_color: "#1f93ff" };
    }
    if (path.startsWith("/locales/")) {
      return { send: "Envoyer" };
    }
    if (method === "POST" && path.endsWith("/events")) {
      return options.events ? options.events() : {};
    }
    if (method === "POST" && path === "/inboxes/inbox-1/contacts") {
      return { source_id: "src-new", pubsub_token: "t", identifier: null, email: null };
    }
    if (method === "POST" && path === `${contactPath("src-new")}/conversations`) {
      return { id: 5 };
    }
    if (method === "POST" && path === `${contactPath("src-new")}/conversations/5/messages`) {
      const { echo_id } = body as { echo_id: string };
      return message({ content: "hi", echo_id, message_type: 0, conversation_id: 5 });
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const eventsOf = (calls: ReturnType<typeof server>) =>
  calls.filter((c) => c.path.endsWith("/events"));

/** What the widget says when the visitor opens it on HOST_PAGE at NOW. */
const triggered = (widgetLanguage = "en") => ({
  name: "webwidget.triggered",
  event_info: {
    initiated_at: { timestamp: NOW.toISOString() },
    referer: HOST_PAGE,
    widget_language: widgetLanguage,
    browser_language: navigator.language,
  },
});

/** A fresh app, as on a new page (the chat's stores live in its modules). */
async function app() {
  vi.resetModules();
  const [{ configure }, chat, outbox, session, ui] = await Promise.all([
    import("../../widget/src/app/config"),
    import("../../widget/src/app/state/chat"),
    import("../../widget/src/app/state/outbox"),
    import("../../widget/src/app/state/session"),
    import("../../widget/src/app/state/ui"),
  ]);
  configure("#inbox=inbox-1", "en");
  return { ...chat, ...outbox, ...session, ...ui };
}

/** A visitor who is a contact already (from an earlier page). */
function returningVisitor() {
  localStorage.setItem(
    "parley:inbox-1:session",
    JSON.stringify({ sourceId: "src-1", pubsubToken: "t", identifier: null, email: null }),
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  localStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("webwidget.triggered", () => {
  it("is sent once per open of the chat, not when the chat merely loads", async () => {
    returningVisitor();
    const calls = server();
    const { startChat, setOpen } = await app();
    await startChat();
    setOpen(false, HOST_PAGE);
    await settle();
    expect(eventsOf(calls)).toEqual([]);

    setOpen(true, HOST_PAGE);
    setOpen(true, HOST_PAGE);
    await settle();
    expect(eventsOf(calls)).toEqual([
      { method: "POST", path: `${contactPath("src-1")}/events`, body: triggered() },
    ]);

    setOpen(false, HOST_PAGE);
    setOpen(true, HOST_PAGE);
    await settle();
    expect(eventsOf(calls)).toHaveLength(2);
    expect(eventsOf(calls)[1]?.body).toEqual(triggered());
  });

  it("waits for the widget's language when the chat opens while it boots", async () => {
    returningVisitor();
    const calls = server({ locale: "fr" });
    const { startChat, setOpen } = await app();
    setOpen(true, HOST_PAGE);
    await settle();
    expect(eventsOf(calls)).toEqual([]);
    await startChat();
    await settle();
    expect(eventsOf(calls).map((c) => c.body)).toEqual([triggered("fr")]);
  });

  it("reports a new visitor's open once their first message made them a contact", async () => {
    const calls = server();
    const { startChat, setOpen, queueText, session } = await app();
    await startChat();
    setOpen(true, HOST_PAGE);
    await settle();
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);

    queueText("hi");
    await vi.waitFor(() => expect(session.value?.conversationId).toBe(5));
    await settle();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual([
      "/inboxes/inbox-1/contacts",
      `${contactPath("src-new")}/events`,
      `${contactPath("src-new")}/conversations`,
      `${contactPath("src-new")}/conversations/5/messages`,
    ]);
    expect(eventsOf(calls)[0]?.body).toEqual(triggered());
  });

  it("swallows a refused or lost report, without retrying, and reports the next open", async () => {
    returningVisitor();
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    let answer = 0;
    const calls = server({
      events: () => {
        answer++;
        if (answer === 1) {
          return new Response(JSON.stringify({ error: "boom", code: "internal" }), {
            status: 500,
          });
        }
        if (answer === 2) {
          throw new TypeError("Failed to fetch");
        }
        return {};
      },
    });
    const { startChat, setOpen, isOpen } = await app();
    await startChat();
    for (let i = 0; i < 3; i++) {
      setOpen(true, HOST_PAGE);
      await settle();
      setOpen(false, HOST_PAGE);
    }
    await settle();
    process.off("unhandledRejection", unhandled);
    expect(eventsOf(calls)).toHaveLength(3);
    expect(unhandled).not.toHaveBeenCalled();
    setOpen(true, HOST_PAGE);
    expect(isOpen.value).toBe(true);
  });
});
