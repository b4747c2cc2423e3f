import type {
  ContactInboxRow,
  ContactRow,
  ConversationRow,
  ConversationStatus,
  InboxRow,
} from "../../db/schema";
import { commit } from "../../events/commit";
import type { AnyDomainEvent } from "../../events/types";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { validateCustomAttributes } from "../custom-attributes/validate";
import { findInbox } from "../inboxes/queries";
import { createMessage, type MessageScope } from "../messages/service";
import { findTeam } from "../teams/queries";
import type { ConversationScope } from "./access";
import { firstRow } from "./events";
import { conversationHooks } from "./hooks";
import { viewerOf } from "./policy";
import {
  assigneeStanding,
  contactInboxIdOf,
  conversationIdByUuid,
  findById,
  findContact,
  findContactInbox,
  findContactInboxInAccount,
  hasActiveBot,
  inboxVisibleTo,
  insertContactInbox,
  insertConversation,
  latestContactInbox,
} from "./queries";
import type { ConversationCreate } from "./schema.actions";

/** Where the conversation will live: an existing contact inbox, or the source_id of a new one. */
type Placement = {
  inbox: InboxRow;
  contact: ContactRow;
  existing: ContactInboxRow | null;
  sourceId: string;
};

async function visibleInbox(scope: ConversationScope, inboxId: number): Promise<InboxRow> {
  const { db } = scope.deps;
  const inbox = await findInbox(db, scope.account.id, inboxId);
  if (!inbox || !(await inboxVisibleTo(db, viewerOf(scope), inbox.id))) {
    throw new ApiError("not_found");
  }
  return inbox;
}

async function accountContact(scope: ConversationScope, contactId: number): Promise<ContactRow> {
  const contact = await findContact(scope.deps.db, scope.account.id, contactId);
  if (!contact) {
    throw new ApiError("not_found");
  }
  return contact;
}

/**
 * Chatwoot parity (ContactInboxBuilder): inbox_id + contact_id, with a source_id that is new
 * or already the contact's in that inbox; or a bare source_id naming an existing contact inbox.
 */
async function place(scope: ConversationScope, input: ConversationCreate): Promise<Placement> {
  const { db } = scope.deps;
  if (input.inbox_id === undefined || input.contact_id === undefined) {
    const found = input.source_id
      ? await findContactInboxInAccount(db, scope.account.id, input.source_id)
      : undefined;
    if (!found) {
      throw new ApiError("not_found");
    }
    const ci = found.contactInbox;
    const inbox = await visibleInbox(scope, ci.inboxId);
    return {
      inbox,
      contact: await accountContact(scope, ci.contactId),
      existing: ci,
      sourceId: ci.sourceId,
    };
  }
  const inbox = await visibleInbox(scope, input.inbox_id);
  const contact = await accountContact(scope, input.contact_id);
  const existing = input.source_id
    ? await findContactInbox(db, inbox.id, input.source_id)
    : await latestContactInbox(db, contact.id, inbox.id);
  if (existing && existing.contactId !== contact.id) {
    throw invalidField("source_id", "should be unique");
  }
  const sourceId = existing?.sourceId ?? input.source_id ?? crypto.randomUUID();
  return { inbox, contact, existing: existing ?? null, sourceId };
}

/** Chatwoot parity: an assignee is an administrator of the account or a member of the inbox. */
export async function checkAssignee(
  scope: ConversationScope,
  inboxId: number,
  userId: number,
  path = "assignee_id",
) {
  const standing = await assigneeStanding(scope.deps.db, scope.account.id, inboxId, userId);
  if (!standing || (standing.role !== "administrator" && !standing.inInbox)) {
    throw invalidField(path, "must be an agent of this inbox");
  }
}

export async function checkTeam(scope: ConversationScope, teamId: number, path = "team_id") {
  const team = await findTeam(scope.deps.db, scope.account.id, teamId);
  if (!team) {
    throw invalidField(path, "is not a team of this account");
  }
  return team;
}

export const checkConversationAttributes = (
  scope: ConversationScope,
  attrs: Record<string, unknown>,
) => validateCustomAttributes(scope.deps, scope.account.id, "conversation_attribute", attrs);

/** Chatwoot parity (Conversation#determine_conversation_status). */
async function initialStatus(scope: ConversationScope, p: Placement, wanted?: ConversationStatus) {
  if (p.contact.blocked) {
    return "resolved";
  }
  if (await hasActiveBot(scope.deps.db, p.inbox.id)) {
    return "pending";
  }
  return wanted ?? "open";
}

const clashOn = (err: unknown, column: string) => {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed/i.test(e.message) && e.message.includes(column)) {
      return true;
    }
  }
  return false;
};

type Checked = {
  placement: Placement;
  custom: Record<string, unknown>;
  status: ConversationStatus;
};

/** Every rule of a create, checked before anything is written. */
async function checkCreate(scope: ConversationScope, input: ConversationCreate): Promise<Checked> {
  const placement = await place(scope, input);
  if (input.assignee_id) {
    await checkAssignee(scope, placement.inbox.id, input.assignee_id);
  }
  if (input.team_id) {
    await checkTeam(scope, input.team_id);
  }
  const custom = await checkConversationAttributes(scope, input.custom_attributes ?? {});
  const status = await initialStatus(scope, placement, input.status);
  return { placement, custom, status };
}

async function insertChecked(
  scope: ConversationScope,
  input: ConversationCreate,
  { placement: p, custom, status }: Checked,
): Promise<ConversationRow> {
  const { db } = scope.deps;
  const now = scope.deps.now();
  const uuid = crypto.randomUUID();
  const insert = insertConversation(db, {
    accountId: scope.account.id,
    uuid,
    inboxId: p.inbox.id,
    contactId: p.contact.id,
    contactInboxId: contactInboxIdOf(db, p.inbox.id, p.sourceId),
    status,
    assigneeId: input.assignee_id ?? null,
    teamId: input.team_id ?? null,
    snoozedUntil: status === "snoozed" ? (input.snoozed_until ?? null) : null,
    additionalAttributes: input.additional_attributes ?? {},
    customAttributes: custom,
    // Chatwoot parity: a new conversation waits for its first reply from creation on.
    waitingSince: now,
    lastActivityAt: now,
    createdAt: now,
    updatedAt: now,
  });
  const created: AnyDomainEvent = {
    name: "conversation.created",
    accountId: scope.account.id,
    conversation: conversationIdByUuid(db, uuid),
    data: { inbox_id: p.inbox.id, contact_id: p.contact.id },
  };
  const newContactInbox = p.existing
    ? []
    : [
        insertContactInbox(db, {
          contactId: p.contact.id,
          inboxId: p.inbox.id,
          sourceId: p.sourceId,
          pubsubToken: secureToken(),
        }),
      ];
  const statements = [...newContactInbox, insert];
  const results = await commit(scope.deps, statements, [created], {
    conversation: (r) => firstRow<ConversationRow>(r, statements.length - 1),
  });
  return stored(firstRow<ConversationRow>(results, statements.length - 1));
}

function stored(row: ConversationRow | undefined): ConversationRow {
  if (!row) {
    throw new Error("conversation not stored");
  }
  return row;
}

/**
 * Creates a conversation (and its contact inbox when new) in one batch. The display_id is
 * allocated by the insert itself; when a concurrent writer wins a clash (the same display_id,
 * or the same new source_id), the rules are checked again and the insert retried.
 */
export async function createConversation(
  scope: ConversationScope,
  input: ConversationCreate,
): Promise<ConversationRow> {
  for (let attempt = 1; ; attempt++) {
    const checked = await checkCreate(scope, input);
    let row: ConversationRow;
    try {
      row = await insertChecked(scope, input, checked);
    } catch (err) {
      const retryable = clashOn(err, "display_id") || clashOn(err, "source_id");
      if (!retryable || attempt >= 5) {
        throw clashOn(err, "source_id") ? invalidField("source_id", "should be unique") : err;
      }
      continue;
    }
    return conversationHooks().created(scope, row);
  }
}

/** Create, then the optional first message: outgoing from the caller, through the room. */
export async function createWithMessage(
  scope: MessageScope,
  input: ConversationCreate,
): Promise<ConversationRow> {
  const row = await createConversation(scope, input);
  if (!input.message) {
    return row;
  }
  await createMessage(scope, row, { content: input.message.content, messageType: "outgoing" });
  return (await findById(scope.deps.db, row.id)) ?? row;
}
