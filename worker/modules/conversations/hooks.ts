import type { ConversationRow } from "../../db/schema";
import type { ConversationScope } from "./access";

/**
 * What other modules do when a conversation is created or changes status (auto-assignment, the
 * CSAT survey). They use this module's services, so this module cannot import them: worker/
 * wiring.ts registers them here, as events/registry.ts does for event handlers.
 */
export type ConversationHooks = {
  /** After a conversation is stored; answers the row as the hook left it. */
  created: (scope: ConversationScope, row: ConversationRow) => Promise<ConversationRow>;
  /** After a status change was committed (and its activity note posted). */
  statusChanged: (
    scope: ConversationScope,
    before: ConversationRow,
    after: ConversationRow,
  ) => Promise<void>;
};

const NONE: ConversationHooks = {
  created: async (_scope, row) => row,
  statusChanged: async () => {},
};

// Isolate-level on purpose: set once by worker/wiring.ts.
let registered: ConversationHooks = NONE;

export function registerConversationHooks(hooks: Partial<ConversationHooks>): void {
  registered = { ...NONE, ...hooks };
}

export const conversationHooks = (): ConversationHooks => registered;
