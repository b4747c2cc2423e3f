import type { CannedResponseRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { findContact } from "../contacts/queries";
import { type ConversationScope, loadConversationFor } from "../conversations/access";
import { findUser } from "../users/queries";
import {
  deleteCannedResponse as deleteRow,
  findByShortCode,
  findCannedResponse,
  insertCannedResponse,
  type NewCannedResponse,
  updateCannedResponse as updateRow,
} from "./queries";
import type { CannedResponseCreate, CannedResponseUpdate } from "./schema";
import { expandVariables, messageVariables } from "./variables";

const shortCodeTaken = () =>
  invalidField("short_code", "has already been taken", "Short code has already been taken");

export async function loadCannedResponse(
  deps: Deps,
  accountId: number,
  id: number,
): Promise<CannedResponseRow> {
  const row = await findCannedResponse(deps.db, accountId, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

/** Chatwoot parity: short codes are unique per account. */
export async function createCannedResponse(
  deps: Deps,
  accountId: number,
  input: CannedResponseCreate,
): Promise<CannedResponseRow> {
  if (await findByShortCode(deps.db, accountId, input.short_code)) {
    throw shortCodeTaken();
  }
  try {
    const values = { accountId, shortCode: input.short_code, content: input.content };
    const [row] = await insertCannedResponse(deps.db, values);
    if (!row) {
      throw new ApiError("internal_error");
    }
    return row;
  } catch (err) {
    throw isUniqueViolation(err) ? shortCodeTaken() : err;
  }
}

export async function updateCannedResponse(
  deps: Deps,
  current: CannedResponseRow,
  input: CannedResponseUpdate,
): Promise<CannedResponseRow> {
  if (
    input.short_code !== undefined &&
    (await findByShortCode(deps.db, current.accountId, input.short_code, current.id))
  ) {
    throw shortCodeTaken();
  }
  const values: Partial<NewCannedResponse> = { updatedAt: deps.now() };
  if (input.short_code !== undefined) {
    values.shortCode = input.short_code;
  }
  if (input.content !== undefined) {
    values.content = input.content;
  }
  try {
    const [row] = await updateRow(deps.db, current.accountId, current.id, values);
    return row ?? current;
  } catch (err) {
    throw isUniqueViolation(err) ? shortCodeTaken() : err;
  }
}

export async function deleteCannedResponse(deps: Deps, row: CannedResponseRow): Promise<void> {
  await deleteRow(deps.db, row.accountId, row.id);
}

/**
 * The response's content with its variables filled in for a conversation the caller may see
 * (404 otherwise): the contact's, the assignee's (Chatwoot's `agent`) and the conversation's.
 */
export async function expandFor(
  scope: ConversationScope,
  row: CannedResponseRow,
  displayId: number,
): Promise<string> {
  const conversation = await loadConversationFor(scope, displayId);
  const db = scope.deps.db;
  const [contact, assignee] = await Promise.all([
    findContact(db, scope.account.id, conversation.contactId),
    conversation.assigneeId === null ? undefined : findUser(db, conversation.assigneeId),
  ]);
  const vars = messageVariables({
    conversation,
    contact: contact ?? null,
    assignee: assignee ? { name: assignee.name, email: assignee.email } : null,
  });
  return expandVariables(row.content, vars);
}
