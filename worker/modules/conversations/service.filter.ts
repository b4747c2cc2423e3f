import { listDefinitions } from "../custom-attributes/queries";
import { compileFilter } from "../filters/compile";
import { conversationFilterFields } from "../filters/conversation-fields";
import type { ConversationScope } from "./access";
import { viewerOf } from "./policy";
import type { SortKey } from "./schema";
import { type ConversationPage, pageOf } from "./service.list";

/** Definitions are loaded only when a key is not a standard one (it may be a custom attribute). */
async function definitionsFor(scope: ConversationScope, payload: unknown[]) {
  const custom = payload.some((c) => {
    const key = (c as { attribute_key?: unknown } | null)?.attribute_key;
    return typeof key !== "string" || !Object.hasOwn(conversationFilterFields.fields, key);
  });
  return custom ? listDefinitions(scope.deps.db, scope.account.id, "conversation_attribute") : [];
}

/**
 * Chatwoot parity (Conversations::FilterService): the DSL over the caller's conversations,
 * with the same counts as the list; no status is implied (a status condition must say so).
 */
export async function filterConversations(
  scope: ConversationScope,
  payload: unknown[],
  req: { page: number; sort: SortKey },
): Promise<ConversationPage> {
  const definitions = await definitionsFor(scope, payload);
  const where = compileFilter(payload, conversationFilterFields, definitions, {
    nowMs: scope.deps.now() * 1000,
  });
  const filter = { accountId: scope.account.id, viewer: viewerOf(scope), where };
  return pageOf(scope, filter, { assigneeType: "all", sort: req.sort, page: req.page });
}
