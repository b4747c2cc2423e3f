import { api } from "../api/endpoints";
import type { ContactInput, ContactSession } from "../api/types";
import { load, store } from "../lib/storage";
import { signal } from "./signal";

/** Who the visitor is to the API; kept in the iframe's local storage per inbox. */
export type Session = {
  sourceId: string;
  pubsubToken: string;
  identifier: string | null;
  email: string | null;
  conversationId: number | null;
};

export const session = signal<Session | null>(null);
/** Profile fields from setUser / setCustomAttributes / the pre-chat form, for a contact to come. */
export const pendingProfile = signal<ContactInput>({});

export function restoreSession() {
  session.value = load<Session | null>("session", null);
}

export function saveSession(next: Session | null) {
  session.value = next;
  store("session", next);
}

export function setConversationId(id: number | null) {
  if (session.value) {
    saveSession({ ...session.value, conversationId: id });
  }
}

const fromContact = (c: ContactSession, conversationId: number | null): Session => ({
  sourceId: c.source_id,
  pubsubToken: c.pubsub_token,
  identifier: c.identifier,
  email: c.email,
  conversationId,
});

export function adoptContact(contact: ContactSession) {
  saveSession(fromContact(contact, session.value?.conversationId ?? null));
}

let creating: Promise<Session> | null = null;

/** The visitor's contact, created on first need (not on page view) with what we know of them. */
export function ensureContact(): Promise<Session> {
  if (session.value) {
    return Promise.resolve(session.value);
  }
  creating ??= api
    .createContact(pendingProfile.value)
    .then((contact) => {
      pendingProfile.value = {};
      saveSession(fromContact(contact, null));
      return session.value as Session;
    })
    .finally(() => {
      creating = null;
    });
  return creating;
}

let opening: Promise<{ sourceId: string; conversationId: number }> | null = null;

/** The conversation messages go to, started on the first message. */
export function ensureConversation(): Promise<{ sourceId: string; conversationId: number }> {
  const current = session.value;
  if (current?.conversationId) {
    return Promise.resolve({ sourceId: current.sourceId, conversationId: current.conversationId });
  }
  opening ??= ensureContact()
    .then(async (s) => {
      const conversation = await api.createConversation(s.sourceId);
      setConversationId(conversation.id);
      return { sourceId: s.sourceId, conversationId: conversation.id };
    })
    .finally(() => {
      opening = null;
    });
  return opening;
}
