import { eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import { hmacSha256Hex } from "../../worker/lib/hmac";
import { createAccount, createAdmin, createInbox, db } from "./factories";
import { type ApiResult, api } from "./http";

type Options = {
  method?: string;
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  /** The caller's address (CF-Connecting-IP); a fresh one per call unless given. */
  ip?: string;
};

let ipSeq = 0;

/** A fresh client address, so tests never share the per-IP rate-limit window. */
export const freshIp = () =>
  `2001:db8:${Date.now().toString(16).slice(-4)}:${Math.floor(Math.random() * 0xffff).toString(16)}::${(++ipSeq).toString(16)}`;

/** A public-API request (no token), from its own client address. */
export function pub<T = any>(path: string, opts: Options = {}): Promise<ApiResult<T>> {
  const { ip, headers, ...rest } = opts;
  return api<T>(`/public/api/v1/inboxes/${path}`, {
    ...rest,
    headers: { "cf-connecting-ip": ip ?? freshIp(), ...headers },
  });
}

/** An account with an admin and an inbox (API channel unless told otherwise). */
export async function createPublicWorld(inbox: Partial<typeof t.inboxes.$inferInsert> = {}) {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const row = await createInbox(account.id, inbox);
  return { account, admin, inbox: row, base: row.inboxIdentifier };
}

/** A contact created through the public API; returns the response body (source_id …). */
export async function createPublicContact(inboxIdentifier: string, body: unknown = {}) {
  const res = await pub(`${inboxIdentifier}/contacts`, { method: "POST", body });
  if (res.status !== 200) {
    throw new Error(`contact not created: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: number; source_id: string; pubsub_token: string; [k: string]: any };
}

/** A contact with a conversation, both through the public API. */
export async function createPublicConversation(inboxIdentifier: string, contactBody: unknown = {}) {
  const contact = await createPublicContact(inboxIdentifier, contactBody);
  const path = `${inboxIdentifier}/contacts/${contact.source_id}/conversations`;
  const res = await pub(path, { method: "POST" });
  if (res.status !== 200) {
    throw new Error(`conversation not created: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const conversation = res.body as { id: number; uuid: string; [k: string]: any };
  return { contact, conversation, path: `${path}/${conversation.id}` };
}

export const identifierHash = (hmacToken: string, identifier: string) =>
  hmacSha256Hex(hmacToken, identifier);

export const contactInboxRow = (sourceId: string) =>
  db().select().from(t.contactInboxes).where(eq(t.contactInboxes.sourceId, sourceId)).get();

export const conversationByUuid = (uuid: string) =>
  db().select().from(t.conversations).where(eq(t.conversations.uuid, uuid)).get();

/**
 * A visitor's conversation as `createPublicConversation` makes it, with its D1 row: the APIs name
 * conversations by display id, while messages and rooms go by the row's own id.
 */
export async function createPublicConversationRow(inboxIdentifier: string, contactBody?: unknown) {
  const made = await createPublicConversation(inboxIdentifier, contactBody);
  const row = await conversationByUuid(made.conversation.uuid);
  if (!row) {
    throw new Error("conversation not stored");
  }
  return { ...made, row };
}
