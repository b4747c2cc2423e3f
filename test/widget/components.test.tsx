import { fireEvent, screen } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../../widget/src/app/App";
import type { Conversation } from "../../widget/src/app/api/types";
import { MessageBubble } from "../../widget/src/app/components/MessageBubble";
import { MessageList } from "../../widget/src/app/components/MessageList";
import { configure } from "../../widget/src/app/config";
import { resetChat } from "../../widget/src/app/state/chat";
import {
  agentRead,
  loadConversation,
  mergeMessages,
  pending,
  typing,
} from "../../widget/src/app/state/conversation";
import { saveSession } from "../../widget/src/app/state/session";
import { online, settings } from "../../widget/src/app/state/ui";
import { fakeApi, inboxSettings, message, settle, show } from "./support";

const SETTINGS = inboxSettings();

let view: ReturnType<typeof show> | undefined;

beforeEach(() => {
  configure("#inbox=inbox-1", "en");
  resetChat();
  online.value = true;
  settings.value = SETTINGS;
});

afterEach(() => {
  view?.cleanup();
  view = undefined;
  vi.unstubAllGlobals();
});

describe("MessageBubble", () => {
  it("shows HTML in a message as text, and links as links with safe attributes", () => {
    const m = message({ content: `<img src=x onerror="alert(1)"> see https://example.com` });
    view = show(() => <MessageBubble message={m} showSender last />);
    expect(view.root.querySelector("img")).toBeNull();
    expect(view.root.textContent).toContain(`<img src=x onerror="alert(1)"> see`);
    const link = screen.getByRole("link", { name: "https://example.com" });
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(link.getAttribute("target")).toBe("_blank");
  });

  // Issue 15: the name above the run, the avatar beside its last bubble (with the one time).
  it("names the agent with an avatar, and previews image attachments", () => {
    const m = message({
      content: null,
      sender: { id: 1, name: "Ada Lovelace", type: "user", avatar_url: "", thumbnail: "" },
      attachments: [
        {
          id: 1,
          message_id: 1,
          account_id: 1,
          file_type: "image",
          extension: "png",
          data_url: "https://files.example/a.png",
          thumb_url: "https://files.example/a-thumb.png",
          file_size: 2048,
          width: null,
          height: null,
          fallback_title: "receipt.png",
          coordinates_lat: null,
          coordinates_long: null,
          transcribed_text: null,
          meta: {},
        },
      ],
    });
    view = show(() => <MessageBubble message={m} showSender last />);
    expect(view.root.querySelector(".pw-sender")?.textContent).toBe("Ada Lovelace");
    expect(view.root.querySelector(".pw-meta .pw-avatar")?.textContent).toBe("AL");
    const img = screen.getByRole("img", { name: "receipt.png" });
    expect(img.getAttribute("src")).toBe("https://files.example/a-thumb.png");
  });
});

describe("MessageList", () => {
  it("says Read only for what the agents' read covers, though a later message shares its second", async () => {
    const second = 1_700_000_100;
    const mine = (id: number) =>
      message({ id, seq: id, message_type: 0, created_at: second, sender: undefined });
    view = show(() => <MessageList />);
    loadConversation({
      id: 1,
      uuid: "c-1",
      inbox_id: 1,
      status: "open",
      contact_last_seen_at: second,
      agent_last_seen_at: second,
      agent_last_seen_seq: 1,
      messages: [mine(1)],
      contact: { id: 1, name: "Visitor", email: null, phone_number: null, identifier: null },
    } as Conversation);
    await settle();
    expect(view.root.textContent).toContain("Read");
    // Stored after the read, in the same second: a time comparison would call it read too.
    mergeMessages([mine(2)]);
    await settle();
    expect(view.root.textContent).toContain("Sent");
    expect(view.root.textContent).not.toContain("Read");
    // The agents read again: the frame's seq covers it.
    agentRead.value = { at: second, seq: 2 };
    await settle();
    expect(view.root.textContent).toContain("Read");
  });

  it("shows messages in seq order, pending ones, and who is typing (no greeting card)", async () => {
    view = show(() => <MessageList />);
    mergeMessages([
      message({ id: 2, seq: 2, content: "second" }),
      message({ id: 1, seq: 1, content: "first" }),
    ]);
    pending.value = [{ echo_id: "e1", content: "on its way", created_at: 1, state: "queued" }];
    typing.value = "Alan Agent";
    await settle();
    const items = [...view.root.querySelectorAll(".pw-bubble")].map((b) => b.textContent);
    // The greeting is the server's template message (issue 22), never a card of the widget's.
    expect(view.root.querySelector(".pw-card")).toBeNull();
    expect(view.root.textContent).not.toContain("Hello! How can we help?");
    expect(items).toEqual(["Alan Agent: first", "Alan Agent: second", "on its way"]);
    expect(view.root.textContent).toContain("Waiting for the network…");
    expect(view.root.textContent).toContain("Alan Agent is typing…");
    expect(view.root.querySelector("[role=log]")?.getAttribute("aria-live")).toBe("polite");
  });
});

describe("App", () => {
  it("sends on Enter, keeps Shift+Enter for a new line, and shows the message as pending", async () => {
    fakeApi(() => new Promise(() => {}));
    view = show(() => <App />);
    const input = screen.getByLabelText("Message") as HTMLTextAreaElement;
    fireEvent.input(input, { target: { value: "line one" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    await settle();
    expect(pending.value).toEqual([]);
    fireEvent.keyDown(input, { key: "Enter" });
    await settle();
    expect(pending.value.map((p) => p.content)).toEqual(["line one"]);
    expect(input.value).toBe("");
  });

  it("asks for the pre-chat form first when the inbox wants it, and validates it", async () => {
    fakeApi(() => new Promise(() => {}));
    settings.value = { ...SETTINGS, pre_chat_form_enabled: true };
    view = show(() => <App />);
    // The form comes with the interactive chunk: "Loading…" until it lands.
    fireEvent.click(await screen.findByRole("button", { name: "Start the conversation" }));
    await settle();
    expect(screen.getByLabelText("Email *").getAttribute("aria-invalid")).toBe("true");
    fireEvent.input(screen.getByLabelText("Email *"), { target: { value: "ann@example.org" } });
    fireEvent.input(screen.getByLabelText("Message *"), { target: { value: "Hi!" } });
    fireEvent.click(screen.getByRole("button", { name: "Start the conversation" }));
    await settle();
    expect(pending.value.map((p) => p.content)).toEqual(["Hi!"]);
    expect(screen.getByLabelText("Message")).toBeTruthy();
  });

  it("outside working hours: no away card of its own (the server sends it), the offline notice", async () => {
    settings.value = {
      ...SETTINGS,
      working_hours_enabled: true,
      working_hours: [0, 1, 2, 3, 4, 5, 6].map((d) => ({
        day_of_week: d,
        closed_all_day: true,
        open_all_day: false,
        open_hour: null,
        open_minutes: null,
        close_hour: null,
        close_minutes: null,
      })),
      out_of_office_message: "Back on Monday.",
    };
    online.value = false;
    view = show(() => <App />);
    expect(view.root.textContent).not.toContain("Back on Monday.");
    expect(screen.getByRole("status").textContent).toContain("You're offline");
    expect(view.root.textContent).not.toContain("Typically replies");
  });

  it("offers a new conversation once the conversation is resolved", async () => {
    const { status } = await import("../../widget/src/app/state/conversation");
    saveSession({
      sourceId: "s",
      pubsubToken: "t",
      identifier: null,
      email: null,
      conversationId: 3,
    });
    status.value = "resolved";
    view = show(() => <App />);
    fireEvent.click(screen.getByRole("button", { name: "Start a new conversation" }));
    await settle();
    expect(screen.getByLabelText("Message")).toBeTruthy();
  });
});
