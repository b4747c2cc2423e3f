import { ApiError, invalidField } from "../../lib/errors";
import { deleteContact, loadContact } from "../contacts/service";
import { contactLabels, setContactLabels } from "../contacts/service.related";
import type { ConversationScope } from "../conversations/access";
import type { BulkAction, BulkResult } from "./schema";
import { uniqueIds } from "./service";

/**
 * Chatwoot parity (Contacts::BulkActionService): `action_name: "delete"` deletes the contacts
 * (administrators, as a single delete), otherwise `labels.add` tags them; each through the
 * contacts module's own functions. Ids not of this account are skipped as not_found.
 */
export async function bulkUpdateContacts(
  scope: ConversationScope,
  input: BulkAction,
): Promise<BulkResult[]> {
  const { deps, account } = scope;
  const remove = input.action_name === "delete";
  const add = input.labels?.add ?? [];
  if (!remove && add.length === 0) {
    throw invalidField("labels.add", 'or action_name "delete" must say what to do');
  }
  if (remove && scope.role !== "administrator") {
    throw new ApiError("forbidden", "Only administrators delete contacts");
  }
  const results: BulkResult[] = [];
  for (const id of uniqueIds(input.ids)) {
    try {
      const contact = await loadContact(deps, account.id, id);
      if (remove) {
        await deleteContact(deps, contact);
      } else {
        const current = await contactLabels(deps, contact);
        await setContactLabels(deps, contact, [...current, ...add]);
      }
      results.push({ id, status: "updated", errors: [] });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "not_found")) {
        throw err;
      }
      results.push({ id, status: "not_found", errors: [] });
    }
  }
  return results;
}
