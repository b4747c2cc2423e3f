import { ApiError } from "../api/client";
import { api } from "../api/endpoints";
import { type ContactInput, INCOMING, type InboxSettings } from "../api/types";
import { config } from "../config";
import { locale, setLocale } from "../i18n";
import { load, store } from "../lib/storage";
import { backoff } from "../realtime/socket";
import {
  clearConversation,
  hasOlder,
  loadConversation,
  mergeMessages,
  messages,
  restorePending,
  setPending,
  synced,
} from "./conversation";
import { connectLive, disconnectLive } from "./live";
import { flush, queueText } from "./outbox";
import { markSeen } from "./receive";
import {
  adoptContact,
  ensureContact,
  pendingProfile,
  restoreSession,
  saveSession,
  session,
  setConversationId,
} from "./session";
import { effect, signal } from "./signal";
import { isOpen, loadError, requestFocus, settings, unread } from "./ui";

const PAGE = 20;

let following = false;
let reporting = false;
/** An open of the chat the API has not heard of yet: when, and on which host page. */
const opened = signal<{ initiated_at: { timestamp: string }; referer: string } | null>(null);

/** Boot: settings, the stored session and its conversation, then anything left to send. */
export async function startChat() {
  restoreSession();
  restorePending();
  // A stored conversation goes live once its history is loaded; a new one right away.
  synced.value = !session.value?.conversationId;
  if (!following) {
    following = true;
    effect(followConversation);
  }
  loadError.value = false;
  // The last settings seen paint the chat at once; fresh ones replace them when they arrive.
  const cached = load<InboxSettings | null>("settings", null);
  const fresh = api.inbox().then((s) => {
    settings.value = s;
    store("settings", s);
    return s;
  });
  try {
    settings.value = cached ?? (await fresh);
  } catch {
    loadError.value = true;
    return;
  }
  fresh.catch(() => {});
  await setLocale(config.locale ?? settings.value?.locale ?? config.lang);
  // Reported once the widget's language is settled, as soon as there is a contact to report.
  if (!reporting) {
    reporting = true;
    effect(reportOpen);
  }
  await openConversation();
  void flush();
}

let openFailures = 0;

/**
 * Loads the stored conversation's latest messages. Offline, tries again when back online; a
 * refusal (429, 5xx) or a lost answer, after Retry-After or a backoff: until then the chat
 * shows no history and its socket waits, so giving up would leave it so for the page's life.
 */
async function openConversation() {
  const s = session.value;
  if (!s?.conversationId || synced.value) {
    return;
  }
  try {
    const conversation = await api.conversation(s.sourceId, s.conversationId);
    loadConversation(conversation);
    hasOlder.value = conversation.messages.length >= PAGE;
    unread.value = isOpen.value
      ? 0
      : conversation.messages.filter(
          (m) => m.message_type !== INCOMING && m.created_at > conversation.contact_last_seen_at,
        ).length;
    synced.value = true;
    openFailures = 0;
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    if (status === 404) {
      setConversationId(null);
      synced.value = true;
    } else if (!navigator.onLine) {
      addEventListener("online", () => void openConversation(), { once: true });
    } else if (status === 0 || status === 429 || status >= 500) {
      const wait =
        err instanceof ApiError && err.retryAfter ? err.retryAfter * 1000 : backoff(++openFailures);
      setTimeout(() => void openConversation(), wait);
    }
  }
}

let live: number | null = null;
/**
 * One socket for the session's conversation, whichever way it began (stored, first message,
 * setUser), opened only once its history is on screen: what the socket brings is then news.
 */
function followConversation() {
  const id = synced.value ? (session.value?.conversationId ?? null) : null;
  if (id !== live) {
    live = id;
    if (id) {
      connectLive();
    } else {
      disconnectLive();
    }
  }
}

/**
 * Chatwoot's webwidget.triggered for each open, for the session's contact. A new visitor has
 * none until their first message (or setUser, or email): the open is reported then. Fire and
 * forget: a lost report is not worth a retry or an error on screen.
 */
function reportOpen() {
  const s = session.value;
  const o = opened.value;
  if (s && o) {
    opened.value = null;
    void api
      .event(s.sourceId, {
        name: "webwidget.triggered",
        event_info: {
          ...o,
          widget_language: locale.peek(),
          browser_language: navigator.language,
        },
      })
      .catch(() => {});
  }
}

/** `url`: the host page's address; on its own, the chat has only its referrer. */
export function setOpen(open: boolean, url = document.referrer) {
  if (open && !isOpen.value) {
    opened.value = { initiated_at: { timestamp: new Date().toISOString() }, referer: url };
  }
  isOpen.value = open;
  if (open) {
    unread.value = 0;
    markSeen();
    requestFocus();
  }
}

/** After a resolved conversation: the next message starts a new one. */
export function startNewConversation() {
  clearConversation();
  setConversationId(null);
  requestFocus();
}

export async function loadOlder() {
  const s = session.value;
  const first = messages.value[0];
  if (!s?.conversationId || !first) {
    return;
  }
  const older = await api.messages(s.sourceId, s.conversationId, first.id);
  mergeMessages(older);
  hasOlder.value = older.length >= PAGE;
}

/** The first message sent from the pre-chat form carries the visitor's name and email. */
export function submitPreChat(profile: ContactInput, message: string) {
  pendingProfile.value = { ...pendingProfile.value, ...profile };
  queueText(message);
}

/** The visitor's answer to a bot's or agent's prompt; the updated message shows it answered. */
export async function answerPrompt(messageId: number, values: unknown) {
  const s = session.value;
  if (s?.conversationId) {
    mergeMessages([await api.answer(s.sourceId, s.conversationId, messageId, values)]);
  }
}

export async function saveEmail(email: string) {
  const s = await ensureContact();
  adoptContact(await api.updateContact(s.sourceId, { email }));
}

/** SDK setUser: identifies the visitor; another identifier than the session's starts over. */
export async function setUser(identifier: string, attributes: ContactInput) {
  if (session.value?.identifier && session.value.identifier !== identifier) {
    resetChat();
  }
  const body = { ...attributes, identifier };
  const s = session.value;
  if (s) {
    adoptContact(await api.updateContact(s.sourceId, body));
    return;
  }
  pendingProfile.value = { ...pendingProfile.value, ...body };
  // A known user may already have a conversation going (from another page or device).
  const created = await ensureContact();
  const open = (await api.conversations(created.sourceId)).filter((c) => c.status !== "resolved");
  const latest = open[open.length - 1];
  if (latest && !session.value?.conversationId) {
    synced.value = false;
    setConversationId(latest.id);
    await openConversation();
  }
}

export async function setCustomAttributes(attributes: Record<string, unknown>) {
  const s = session.value;
  if (s) {
    adoptContact(await api.updateContact(s.sourceId, { custom_attributes: attributes }));
  } else {
    const merged = { ...pendingProfile.value.custom_attributes, ...attributes };
    pendingProfile.value = { ...pendingProfile.value, custom_attributes: merged };
  }
}

/** SDK reset: forget the visitor (a logout on the host site). */
export function resetChat() {
  saveSession(null);
  setPending([]);
  clearConversation();
  pendingProfile.value = {};
  unread.value = 0;
}
