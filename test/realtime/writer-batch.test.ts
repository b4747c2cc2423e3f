import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ConversationRow } from "../../worker/db/schema";
import { groupBatch } from "../../worker/modules/conversation-room/group-batch";
import { type WriterCall, writerBatch } from "../../worker/modules/conversation-room/writer-batch";
import { leaseMessageIds } from "../../worker/modules/messages/queries";
import { createWorld, db } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";

type Entry = WriterCall["entries"][number];
type Kind = "incoming" | "reply" | "note" | "activity" | "bot" | "ruled";

const T0 = 1_760_000_000;

/** A logged message of `kind` into `c`, as the room logs it (messages/service.ts' touches). */
function request(
  w: Awaited<ReturnType<typeof createWorld>>,
  c: { conversation: ConversationRow; contact: { id: number } },
  kind: Kind,
  n: number,
): Entry["req"] {
  const at = T0 + 30 * n;
  const base = {
    accountId: w.account.id,
    inboxId: w.inbox.id,
    content: n === 4 ? `lone \uD800 surrogate ${n}` : `message ${n}`,
    createdAt: at,
  };
  const byUser = { performedBy: { type: "user" as const, id: w.agent.id }, origin: "", at };
  const common = {
    conversationId: c.conversation.id,
    view: {} as Entry["req"]["view"],
    counters: { id: c.conversation.id, contactInboxId: null },
  };
  switch (kind) {
    case "incoming":
      return {
        ...common,
        values: {
          ...base,
          messageType: 0,
          senderType: "Contact",
          senderId: c.contact.id,
          sourceId: `src-${n}`,
          echoId: `echo-${n}`,
          idempotencyKey: `key-${n}`,
        },
        touch: { kind: "incoming", at },
        contactId: c.contact.id,
        record: {
          performedBy: { type: "contact", id: c.contact.id },
          origin: "https://widget.test",
          at,
        },
      };
    case "reply":
    case "ruled":
      return {
        ...common,
        values: {
          ...base,
          messageType: 1,
          senderType: "User",
          senderId: w.agent.id,
          contentAttributes: kind === "ruled" ? { automation_rule_id: 7 } : { note: "x" },
        },
        touch: { kind: "human_reply", at },
        record: byUser,
      };
    case "note":
      return {
        ...common,
        values: {
          ...base,
          messageType: 1,
          private: true,
          senderType: "User",
          senderId: w.agent.id,
        },
        touch: { kind: "activity", at },
        record: byUser,
      };
    case "bot":
      return {
        ...common,
        values: { ...base, messageType: 1, senderType: "AgentBot", senderId: w.bot.id },
        touch: { kind: "activity", at },
        record: { performedBy: { type: "agent_bot", id: w.bot.id }, origin: "", at },
      };
    case "activity":
      return {
        ...common,
        values: { ...base, messageType: 2, contentType: "text", updatedAt: at + 1 },
        touch: { kind: "none", at },
        record: null,
      };
  }
}

/** What D1 holds of a conversation, with its own ids named by place (comparable across two). */
async function holdings(conversationId: number, contactId: number) {
  const q = (sql: string) =>
    env.DB.prepare(sql)
      .bind(conversationId)
      .all<Record<string, unknown>>()
      .then((r) => r.results);
  const messages = await q("SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq");
  const place = new Map(messages.map((m, i) => [m.id, i]));
  const outbox = await q(
    "SELECT name, conversation_seq, payload, created_at, sent_at FROM event_outbox WHERE conversation_id = ? ORDER BY id",
  );
  const facts = await q("SELECT * FROM reporting_events WHERE conversation_id = ? ORDER BY id");
  const [conversation] = await q(
    "SELECT updated_at, last_activity_at, waiting_since, first_reply_created_at, event_seq FROM conversations WHERE id = ?",
  );
  const contact = await env.DB.prepare("SELECT last_activity_at FROM contacts WHERE id = ?")
    .bind(contactId)
    .first();
  type Row = Record<string, unknown>;
  return {
    messages: messages.map(({ id, conversation_id, sender_id, sender_type, ...m }) => ({
      ...m,
      // The column's default: SQLite's now when the row was written.
      updated_at: Number(m.updated_at) > T0 + 86_400 ? "now" : m.updated_at,
      sender_type,
      sender: sender_type === "Contact" ? sender_id === contactId : sender_id,
    })) as Row[],
    outbox: outbox.map((o) => {
      const p = JSON.parse(String(o.payload));
      const by = p.performed_by.type === "contact" ? { type: "contact" } : p.performed_by;
      return {
        ...o,
        payload: {
          ...p,
          message_id: place.get(p.message_id),
          conversation_id: 0,
          performed_by: by,
        },
      } as Row;
    }),
    facts: facts.map(({ id, conversation_id, ...f }) => f),
    conversation,
    contact,
  };
}

/** Two like conversations of one inbox, their reply clocks set as `clocks`. */
async function twins(clocks: Partial<Record<"waiting_since" | "first_reply_created_at", number>>) {
  const w = await createWorld();
  const pair = [
    await createConversationIn(w.account.id, w.inbox.id),
    await createConversationIn(w.account.id, w.inbox.id),
  ] as const;
  for (const c of pair) {
    await env.DB.prepare(
      "UPDATE conversations SET created_at = ?, waiting_since = ?, first_reply_created_at = ? WHERE id = ?",
    )
      .bind(
        T0 - 600,
        clocks.waiting_since ?? null,
        clocks.first_reply_created_at ?? null,
        c.conversation.id,
      )
      .run();
  }
  return { w, pair };
}

/** Writes `calls` (kinds per call) into `c`: the writer's statements, or groupBatch's. */
async function write(
  t: Awaited<ReturnType<typeof twins>>,
  c: (typeof t.pair)[number],
  calls: Kind[][],
  way: "writer" | "groupBatch",
) {
  let seq = 0;
  for (const kinds of calls) {
    const { first } = await leaseMessageIds(db(), kinds.length);
    const entries = kinds.map((kind, i) => {
      seq += 1;
      return { id: first + i, seq, req: request(t.w, c, kind, seq) };
    });
    if (way === "writer") {
      const built = await writerBatch(db(), env.DB, { entries, marks: [] });
      const results = await env.DB.batch(built.statements);
      expect(built.eventIds(results)).toHaveLength(entries.filter((e) => e.req.record).length);
    } else {
      const group = entries.map((e) => ({ ...e, req: e.req as never }));
      const batch = await groupBatch(db(), group, { counters: false, rows: false });
      await db().batch(batch.statements as never);
    }
  }
}

const SEQUENCE: Kind[] = [
  "incoming",
  "incoming",
  "note",
  "reply",
  "incoming",
  "activity",
  "bot",
  "ruled",
  "incoming",
  "reply",
  "reply",
  "incoming",
];

/**
 * The log writer writes a room's call in a few statements for all its messages (writer-batch.ts);
 * D1 must end up holding what groupBatch's statements, message by message, write: the messages,
 * their outbox rows, the reporting facts (which read the conversation's reply clocks as each
 * message found them), the conversation's clocks and its contact's.
 */
describe("the log writer's statements", () => {
  for (const [name, clocks] of [
    ["a new conversation", {}],
    [
      "a conversation waiting, answered before",
      { waiting_since: T0 - 500, first_reply_created_at: T0 - 550 },
    ],
  ] as const) {
    it(`write what groupBatch writes, message by message (${name})`, async () => {
      const t = await twins(clocks);
      const [a, b] = t.pair;
      const calls = [SEQUENCE.slice(0, 3), SEQUENCE.slice(3, 4), SEQUENCE.slice(4)];
      await write(t, a, calls, "groupBatch");
      await write(t, b, calls, "writer");
      const [old, now] = [
        await holdings(a.conversation.id, a.contact.id),
        await holdings(b.conversation.id, b.contact.id),
      ];
      expect(now.messages).toHaveLength(SEQUENCE.length);
      expect(new Set(now.facts.map((f) => f.name))).toEqual(
        new Set([
          "message_incoming",
          "message_outgoing",
          "reply_time",
          ...(name === "a new conversation" ? ["first_response"] : []),
        ]),
      );
      expect(now).toEqual(old);
    });
  }

  it("writes every message of a call once and its outbox rows in order", async () => {
    const t = await twins({});
    const [, b] = t.pair;
    await write(
      t,
      b,
      [Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? "reply" : "incoming"))],
      "writer",
    );
    const held = await holdings(b.conversation.id, b.contact.id);
    expect(held.messages.map((m) => m.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const outbox = held.outbox as { conversation_seq: number; payload: { message_id: number } }[];
    expect(outbox.map((o) => [o.conversation_seq, o.payload.message_id])).toEqual(
      Array.from({ length: 60 }, (_, i) => [i + 1, i]),
    );
  });
});
