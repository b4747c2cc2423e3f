import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ConversationRow } from "../../worker/db/schema";
import { groupBatch } from "../../worker/modules/conversation-room/group-batch";
import {
  readyCall,
  type WriterCall,
  writerStatements,
} from "../../worker/modules/conversation-room/writer-batch";
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
  shift = 0,
): Entry["req"] {
  const at = T0 + 30 * n + shift;
  const base = {
    accountId: w.account.id,
    inboxId: w.inbox.id,
    content: n === 4 ? `lone \uD800 surrogate ${n}` : `message ${n}`,
    createdAt: at,
  };
  const byUser = { performedBy: { type: "user" as const, id: w.agent.id }, origin: "", at };
  const common = { conversationId: c.conversation.id };
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

type World = Awaited<ReturnType<typeof createWorld>>;
type Conversation = Awaited<ReturnType<typeof createConversationIn>>;

/**
 * `n` conversations of one inbox (one contact for all with `shared`), their reply clocks set as
 * `clocks`.
 */
async function conversations(
  w: World,
  n: number,
  clocks: Partial<Record<"waiting_since" | "first_reply_created_at", number>>,
  shared = false,
) {
  const out: Conversation[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createConversationIn(w.account.id, w.inbox.id);
    const contact = shared && out[0] ? out[0].contact : c.contact;
    await env.DB.prepare(
      "UPDATE conversations SET created_at = ?, waiting_since = ?, first_reply_created_at = ?, contact_id = ? WHERE id = ?",
    )
      .bind(
        T0 - 600,
        clocks.waiting_since ?? null,
        clocks.first_reply_created_at ?? null,
        contact.id,
        c.conversation.id,
      )
      .run();
    out.push({ ...c, contact });
  }
  return out;
}

/**
 * Writes `calls` (kinds per call) into each conversation, round after round, the i-th one's
 * messages `shift * i` seconds later: each round's calls in one transaction of the writer's
 * statements, or each call as groupBatch's statements, one conversation after the other.
 */
async function write(
  w: World,
  into: Conversation[],
  calls: Kind[][],
  way: "writer" | "groupBatch",
  shift = 0,
) {
  let seq = 0;
  for (const kinds of calls) {
    const round: WriterCall[] = [];
    for (const [n, c] of into.entries()) {
      const { first } = await leaseMessageIds(db(), kinds.length);
      const entries = kinds.map((kind, i) => {
        const at = seq + i + 1;
        return { id: first + i, seq: at, req: request(w, c, kind, at, shift * n) };
      });
      round.push({ entries, frames: [], outbox: [] });
    }
    seq += kinds.length;
    if (way === "writer") {
      const ready = await Promise.all(round.map((call) => readyCall(db(), env.DB, call)));
      const built = writerStatements(env.DB, ready);
      const results = await env.DB.batch(built.statements);
      expect(built.eventIds(results).map((ids) => ids.length)).toEqual(
        round.map((call) => call.entries.filter((e) => e.req.record).length),
      );
    } else {
      for (const call of round) {
        const group = call.entries.map((e) => ({ ...e, req: e.req as never }));
        const batch = await groupBatch(db(), group, { counters: false, rows: false });
        await db().batch(batch.statements as never);
      }
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
const CALLS = [SEQUENCE.slice(0, 3), SEQUENCE.slice(3, 4), SEQUENCE.slice(4)];

/**
 * The log writer writes its rooms' calls in a few statements for all their messages
 * (writer-batch.ts); D1 must end up holding what groupBatch's statements, message by message and
 * room after room, write: the messages, their outbox rows, the reporting facts (which read the
 * conversation's reply clocks as each message found them), the conversations' clocks and their
 * contacts'.
 */
describe("the log writer's statements", () => {
  for (const [name, clocks] of [
    ["new conversations", {}],
    [
      "conversations waiting, answered before",
      { waiting_since: T0 - 500, first_reply_created_at: T0 - 550 },
    ],
  ] as const) {
    it(`write what groupBatch writes, message by message (${name})`, async () => {
      const w = await createWorld();
      const [a, b] = [await conversations(w, 2, clocks), await conversations(w, 2, clocks)];
      await write(w, a, CALLS, "groupBatch");
      await write(w, b, CALLS, "writer");
      for (const i of [0, 1]) {
        const [x, y] = [a[i] as Conversation, b[i] as Conversation];
        const old = await holdings(x.conversation.id, x.contact.id);
        const now = await holdings(y.conversation.id, y.contact.id);
        expect(now.messages).toHaveLength(SEQUENCE.length);
        expect(new Set(now.facts.map((f) => f.name))).toEqual(
          new Set([
            "message_incoming",
            "message_outgoing",
            "reply_time",
            ...(name === "new conversations" ? ["first_response"] : []),
          ]),
        );
        expect(now).toEqual(old);
      }
    });
  }

  it("moves a contact of two conversations written together as the later room's call does", async () => {
    const w = await createWorld();
    const [a, b] = [await conversations(w, 2, {}, true), await conversations(w, 2, {}, true)];
    // The first room's messages are the later ones: the last update, not the latest time, stands.
    await write(w, a, [["incoming"]], "groupBatch", -100);
    await write(w, b, [["incoming"]], "writer", -100);
    const contactOf = (c: Conversation) =>
      env.DB.prepare("SELECT last_activity_at AS at FROM contacts WHERE id = ?")
        .bind(c.contact.id)
        .first<{ at: number }>();
    expect(await contactOf(b[0] as Conversation)).toEqual({ at: T0 + 30 - 100 });
    expect(await contactOf(b[0] as Conversation)).toEqual(await contactOf(a[0] as Conversation));
  });

  it("writes every message of a call once and its outbox rows in order", async () => {
    const w = await createWorld();
    const [b] = await conversations(w, 1, {});
    const c = b as Conversation;
    await write(
      w,
      [c],
      [Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? "reply" : "incoming"))],
      "writer",
    );
    const held = await holdings(c.conversation.id, c.contact.id);
    expect(held.messages.map((m) => m.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const outbox = held.outbox as { conversation_seq: number; payload: { message_id: number } }[];
    expect(outbox.map((o) => [o.conversation_seq, o.payload.message_id])).toEqual(
      Array.from({ length: 60 }, (_, i) => [i + 1, i]),
    );
  });
});
