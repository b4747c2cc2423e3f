import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Conversation, Frame, Message } from "../../dashboard/src/lib/types";
import {
  alertFor,
  notificationsOn,
  setSound,
  setTitleCount,
  soundOn,
} from "../../dashboard/src/state/notify";
import { messageOf } from "./fixtures";

const ME = 7;
const shown: { title: string; options: NotificationOptions }[] = [];
const beeps: number[] = [];

class FakeNotification {
  static permission = "granted";
  constructor(title: string, options: NotificationOptions) {
    shown.push({ title, options });
  }
}

class FakeAudio {
  currentTime = 0;
  destination = {};
  createOscillator() {
    return {
      frequency: { value: 0 },
      connect: (g: unknown) => g,
      start: () => beeps.push(1),
      stop: () => undefined,
      onended: null,
    };
  }
  createGain() {
    return { gain: { value: 0 }, connect: (d: unknown) => d };
  }
  close() {
    return Promise.resolve();
  }
}

const message = (id: number, over: Partial<Message> = {}) =>
  messageOf(id, { content: `hello ${id}`, conversation_id: 3, ...over });

const held = (last: Message | null): Conversation =>
  ({
    id: 3,
    last_non_activity_message: last,
    meta: { sender: { id: 9, name: "Ada" }, assignee: null, team: null },
  }) as unknown as Conversation;

const frame = (event: string, data: Record<string, unknown>): Frame => ({
  event,
  seq: 1,
  data: { id: 3, assignee_id: null, ...data },
});

function tab(state: "visible" | "hidden") {
  Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
}

beforeEach(() => {
  shown.length = 0;
  beeps.length = 0;
  vi.stubGlobal("Notification", FakeNotification);
  vi.stubGlobal("AudioContext", FakeAudio);
  notificationsOn.value = true;
  setSound(true);
  tab("hidden");
});

afterEach(() => {
  vi.unstubAllGlobals();
  tab("visible");
});

describe("sound and browser notifications", () => {
  it("a visitor's new message in an unassigned conversation, tab hidden: a notification and a beep", () => {
    const m = message(11);
    alertFor(frame("message.created", { last_non_activity_message: m }), held(message(10)), ME);
    expect(shown).toEqual([
      { title: "New message from Ada", options: { body: "hello 11", tag: "parley-3" } },
    ]);
    expect(beeps).toHaveLength(1);
  });

  it("a new conversation assigned to me alerts; one assigned to someone else does not", () => {
    alertFor(frame("conversation.created", { assignee_id: ME }), undefined, ME);
    alertFor(frame("conversation.created", { assignee_id: 99 }), undefined, ME);
    expect(shown.map((s) => s.title)).toEqual(["New conversation"]);
  });

  it("stays quiet: tab visible, agents' own replies and notes, a message already shown", () => {
    tab("visible");
    alertFor(frame("message.created", { last_non_activity_message: message(11) }), held(null), ME);
    tab("hidden");
    const reply = message(12, { message_type: 1 });
    alertFor(frame("message.created", { last_non_activity_message: reply }), held(null), ME);
    const note = message(13, { message_type: 1, private: true });
    alertFor(frame("message.created", { last_non_activity_message: note }), held(null), ME);
    // A late frame of a message the row already shows (or an older one).
    alertFor(
      frame("message.created", { last_non_activity_message: message(9) }),
      held(message(10)),
      ME,
    );
    // Summary frames (status, assignee) are not messages.
    alertFor(frame("conversation.updated", { last_activity_at: 1_800_000_000 }), held(null), ME);
    expect(shown).toHaveLength(0);
    expect(beeps).toHaveLength(0);
  });

  it("does what the agent chose: no sound when off, no notification when not allowed", () => {
    setSound(false);
    expect(soundOn.value).toBe(false);
    expect(JSON.parse(localStorage.getItem("parley.app.alerts") ?? "{}")).toEqual({ sound: false });
    notificationsOn.value = false;
    alertFor(frame("message.created", { last_non_activity_message: message(20) }), held(null), ME);
    expect(shown).toHaveLength(0);
    expect(beeps).toHaveLength(0);
    setSound(true);
    alertFor(frame("message.created", { last_non_activity_message: message(21) }), held(null), ME);
    expect(beeps).toHaveLength(1);
    expect(shown).toHaveLength(0);
  });

  it("the tab's title carries the number of conversations with unread messages", () => {
    setTitleCount(3);
    expect(document.title).toBe("(3) Parley");
    setTitleCount(0);
    expect(document.title).toBe("Parley");
  });
});
