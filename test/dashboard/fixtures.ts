// Records as the account API sends them, for the app's tests: one shape, each test's own values.
import type { Conversation, Message } from "../../dashboard/src/lib/types";

export const messageOf = (id: number, over: Partial<Message> = {}): Message => ({
  id,
  content: `message ${id}`,
  conversation_id: 1,
  message_type: 0,
  seq: id,
  created_at: 1_700_000_000 + id,
  private: false,
  status: "sent",
  content_type: "text",
  echo_id: null,
  ...over,
});

export const conversationOf = (id: number, over: Partial<Conversation> = {}): Conversation => ({
  id,
  inbox_id: 1,
  status: "open",
  priority: null,
  labels: [],
  muted: false,
  snoozed_until: null,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_000,
  last_activity_at: 1_700_000_000,
  unread_count: 0,
  contact_last_seen_at: 0,
  last_non_activity_message: null,
  meta: {
    sender: { id: 3, name: "Ada", email: null, phone_number: null },
    assignee: null,
    team: null,
  },
  ...over,
});
