import { signal } from "../lib/signal";
import type { Activity, Conversation, Frame } from "../lib/types";

/** Sound and browser notifications are the agent's choice, kept in this browser. */
const KEY = "parley.app.alerts";
const read = () => {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "{}") as { sound?: boolean };
  } catch {
    return {};
  }
};
export const soundOn = signal(Boolean(read().sound));
export const notificationsOn = signal(
  typeof Notification !== "undefined" && Notification.permission === "granted",
);

export function setSound(on: boolean) {
  soundOn.value = on;
  try {
    localStorage.setItem(KEY, JSON.stringify({ sound: on }));
  } catch {
    // not kept
  }
}

/** Asked on the agent's click only (browsers refuse, and should, a prompt on load). */
export async function askNotifications() {
  if (typeof Notification === "undefined") {
    return;
  }
  notificationsOn.value = (await Notification.requestPermission()) === "granted";
}

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.12);
    osc.onended = () => void ctx.close();
  } catch {
    // no audio
  }
}

/**
 * A new conversation, or a visitor's new message, on a conversation that is the agent's or
 * nobody's, while the tab is hidden: a notification (if allowed) and a beep (if chosen). The
 * agents' own replies and notes alert nobody. The unread count goes in the tab's title.
 */
export function alertFor(frame: Frame, row: Conversation | undefined, meId: number) {
  const data = frame.data as Partial<Activity>;
  const mineOrNobody = data.assignee_id === meId || data.assignee_id === null;
  if (!mineOrNobody || document.visibilityState === "visible") {
    return;
  }
  const m = data.last_non_activity_message;
  const shown = row?.last_non_activity_message;
  const incoming =
    frame.event === "message.created" && m?.message_type === 0 && !(shown && shown.id >= m.id);
  if (frame.event !== "conversation.created" && !incoming) {
    return;
  }
  if (soundOn.peek()) {
    beep();
  }
  if (notificationsOn.peek()) {
    const who = row?.meta.sender?.name || "A visitor";
    const text = incoming ? (m?.content ?? "").slice(0, 120) : "";
    new Notification(incoming ? `New message from ${who}` : "New conversation", {
      body: text || `${who} · #${String(data.id)}`,
      tag: `parley-${String(data.id)}`,
    });
  }
}

export function setTitleCount(unread: number) {
  document.title = unread > 0 ? `(${unread}) Parley` : "Parley";
}
