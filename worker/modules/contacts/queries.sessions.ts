import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contactInboxes, contacts, conversations, readableJson } from "../../db/schema";

/** The public API's sessions (contact_inboxes as a visitor holds them) and their contacts. */

/** A public-API session: the contact_inbox of `sourceId` in the inbox, and its contact. */
export const findContactSession = (db: Db, inboxId: number, sourceId: string) =>
  db
    .select({ contact: contacts, contactInbox: contactInboxes })
    .from(contactInboxes)
    .innerJoin(contacts, eq(contacts.id, contactInboxes.contactId))
    .where(and(eq(contactInboxes.inboxId, inboxId), eq(contactInboxes.sourceId, sourceId)))
    .get();

/** A contact session by its pubsub_token (the live socket's alternative credential). */
export const findContactSessionByPubsubToken = (db: Db, pubsubToken: string) =>
  db
    .select({ contact: contacts, contactInbox: contactInboxes })
    .from(contactInboxes)
    .innerJoin(contacts, eq(contacts.id, contactInboxes.contactId))
    .where(eq(contactInboxes.pubsubToken, pubsubToken))
    .get();

export const findContactByIdentifier = (db: Db, accountId: number, identifier: string) =>
  db
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.identifier, identifier)))
    .get();

/**
 * A session's own state: verified from now on, and/or its claimed fields merged (RFC 7396, in
 * SQL: a null removes a key) or replaced.
 */
export const updateSession = (
  db: Db,
  contactInboxId: number,
  at: number,
  change: {
    verified?: true;
    claims?: Record<string, unknown>;
    replaceClaims?: Record<string, unknown>;
  },
) =>
  db
    .update(contactInboxes)
    .set({
      updatedAt: at,
      ...(change.verified && { hmacVerified: true }),
      ...(change.replaceClaims && { claimed: change.replaceClaims }),
      ...(change.claims &&
        !change.replaceClaims && {
          claimed: sql`json_patch(${readableJson(contactInboxes.claimed)}, ${JSON.stringify(change.claims)})`,
        }),
    })
    .where(eq(contactInboxes.id, contactInboxId))
    .returning();

/**
 * The conversations (rooms) of the inbox's unverified sessions of identified contacts after
 * conversation `after`, at most `limit`, by id (the inbox's conversations index, no sort), with
 * each session's source_id: whose visitor sockets close when hmac_mandatory is switched on.
 */
export const unverifiedIdentifiedRooms = (db: Db, inboxId: number, after: number, limit: number) =>
  db
    .select({ conversationId: conversations.id, sourceId: contactInboxes.sourceId })
    .from(conversations)
    .innerJoin(contactInboxes, eq(contactInboxes.id, conversations.contactInboxId))
    .innerJoin(contacts, eq(contacts.id, contactInboxes.contactId))
    .where(
      and(
        eq(conversations.inboxId, inboxId),
        gt(conversations.id, after),
        eq(contactInboxes.inboxId, inboxId),
        eq(contactInboxes.hmacVerified, false),
        isNotNull(contacts.identifier),
      ),
    )
    .orderBy(asc(conversations.id))
    .limit(limit);
