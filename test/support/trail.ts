import { env } from "cloudflare:test";

const rows = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<Record<string, unknown>>()
  ).results;

/**
 * What a conversation's history and event stream hold, without ids and times: its activity
 * messages, and each outbox event's name, changed attributes and performer. Two conversations
 * changed the same way by the same person have the same trail, whichever route changed them.
 */
export async function trail(conversationId: number) {
  const notes = await rows(
    "SELECT content FROM messages WHERE conversation_id = ? AND message_type = 2 ORDER BY id",
    conversationId,
  );
  const events = await rows(
    `SELECT name, json_extract(payload, '$.changed_attributes') AS changed,
       json_extract(payload, '$.performed_by') AS by
     FROM event_outbox WHERE conversation_id = ? ORDER BY id`,
    conversationId,
  );
  return {
    notes: notes.map((n) => n.content),
    events: events.map((e) => ({
      name: e.name,
      changed: Object.keys(JSON.parse(String(e.changed ?? "{}"))).sort(),
      by: JSON.parse(String(e.by)),
    })),
  };
}
