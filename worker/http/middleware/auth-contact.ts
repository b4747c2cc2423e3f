import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Db } from "../../db/client";
import type { AccountRow, ContactInboxRow, ContactRow, InboxRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { ApiError } from "../../lib/errors";
import { type Actor, performerOf } from "../../modules/access-tokens/service";
import { findAccount } from "../../modules/accounts/queries";
import {
  findContactSession,
  findContactSessionByPubsubToken,
} from "../../modules/contacts/queries.sessions";
import { sessionEnded, sessionEndedError } from "../../modules/contacts/sessions";
import { findInboxById, findInboxByIdentifier } from "../../modules/inboxes/queries.public";
import type { MessageScope } from "../../modules/messages/service";
import type { AppEnv } from "../context";

export type ContactActor = Extract<Actor, { kind: "contact" }>;

type InboxVariables = AppEnv["Variables"] & { inbox: InboxRow; account: AccountRow };

/** Public API, inbox level: no token; the inbox_identifier names the inbox (and its account). */
export type PublicInboxEnv = { Bindings: Bindings; Variables: InboxVariables };

/** Public API, contact level: the contact_identifier (a source_id) names the contact too. */
export type PublicContactEnv = {
  Bindings: Bindings;
  Variables: InboxVariables & {
    actor: ContactActor;
    role: "contact";
    contact: ContactRow;
    contactInbox: ContactInboxRow;
  };
};

/** An inbox by its public identifier, with its account; unknown → 404, suspended → 401. */
export async function resolvePublicInbox(
  db: Db,
  identifier: string,
): Promise<{ inbox: InboxRow; account: AccountRow }> {
  const inbox = await findInboxByIdentifier(db, identifier);
  const account = inbox ? await findAccount(db, inbox.accountId) : undefined;
  if (!inbox || !account) {
    throw new ApiError("not_found");
  }
  if (account.status !== "active") {
    throw new ApiError("account_suspended");
  }
  return { inbox, account };
}

/** The contact behind a source_id of this inbox; a source_id of another inbox is unknown here. */
export async function resolvePublicContact(
  db: Db,
  inbox: InboxRow,
  sourceId: string,
): Promise<ContactActor> {
  const found = await findContactSession(db, inbox.id, sourceId);
  if (!found || found.contact.accountId !== inbox.accountId) {
    throw new ApiError("not_found");
  }
  if (sessionEnded(inbox, found.contact, found.contactInbox)) {
    throw sessionEndedError();
  }
  return { kind: "contact", contact: found.contact, contactInbox: found.contactInbox };
}

/** A contact session's pubsub_token, as the live socket takes it in its query. */
export const PubsubToken = z.string().min(1).max(64);

/**
 * The contact session a pubsub_token names, with its inbox and account; unknown → 401, the
 * inbox's account unknown → 404, suspended → 401.
 */
export async function resolvePubsubContact(
  db: Db,
  pubsubToken: string,
): Promise<{ inbox: InboxRow; account: AccountRow; actor: ContactActor }> {
  const session = await findContactSessionByPubsubToken(db, pubsubToken);
  const inbox = session ? await findInboxById(db, session.contactInbox.inboxId) : undefined;
  if (!session || !inbox) {
    throw new ApiError("unauthorized", "Invalid pubsub_token");
  }
  const found = await resolvePublicInbox(db, inbox.inboxIdentifier);
  if (sessionEnded(found.inbox, session.contact, session.contactInbox)) {
    throw sessionEndedError();
  }
  const actor: ContactActor = {
    kind: "contact",
    contact: session.contact,
    contactInbox: session.contactInbox,
  };
  return { ...found, actor };
}

/**
 * `:inbox_identifier` → c.var.inbox and c.var.account. A stray api_access_token is ignored:
 * the identifiers are the public API's only credentials.
 */
export const publicInbox = createMiddleware<PublicInboxEnv>(async (c, next) => {
  const found = await resolvePublicInbox(c.var.deps.db, c.req.param("inbox_identifier") ?? "");
  c.set("inbox", found.inbox);
  c.set("account", found.account);
  await next();
});

/** The request acts as this contact from here on (its events are attributed to it). */
function actAs(c: Context<PublicContactEnv>, actor: ContactActor) {
  c.set("actor", actor);
  c.set("deps", { ...c.var.deps, performedBy: performerOf(actor) });
  c.set("role", "contact");
  c.set("contact", actor.contact);
  c.set("contactInbox", actor.contactInbox);
}

/** `:contact_identifier` → the contact acting (actor kind "contact", role "contact"). */
export const publicContact = createMiddleware<PublicContactEnv>(async (c, next) => {
  const sourceId = c.req.param("contact_identifier") ?? "";
  actAs(c, await resolvePublicContact(c.var.deps.db, c.var.inbox, sourceId));
  await next();
});

/**
 * `?pubsub_token=` → the contact acting, with its inbox and account, as `publicContact` sets them
 * (the live socket opened with the token alone). A missing or malformed token is left to the
 * route's query schema (`PubsubToken`), which answers 422 before the handler runs.
 */
export const pubsubContact = createMiddleware<PublicContactEnv>(async (c, next) => {
  const values = c.req.queries("pubsub_token") ?? [];
  const token = PubsubToken.safeParse(values.length === 1 ? values[0] : values);
  if (token.success) {
    const { inbox, account, actor } = await resolvePubsubContact(c.var.deps.db, token.data);
    c.set("inbox", inbox);
    c.set("account", account);
    actAs(c, actor);
  }
  await next();
});

/** The service scope of a public contact-level request (messages and conversations). */
export const contactScopeOf = (c: Context<PublicContactEnv>): MessageScope => ({
  deps: c.var.deps,
  account: c.var.account,
  actor: c.var.actor,
  role: "contact",
  origin: c.var.deps.origin,
});
