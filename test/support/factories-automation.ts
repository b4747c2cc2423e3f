import { eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import type { OutboxEvent } from "../../worker/events/outbox-types";
import type { Mail } from "../../worker/lib/mail";
import { db, unique } from "./factories";
import { createConversation, insertMessage } from "./factories-conversations";
import { dohResponse, publicDns } from "./factories-webhooks";

/** One rule condition, as clients send it. */
export const cond = (attribute_key: string, filter_operator: string, values: unknown[] = []) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator: null,
});

/** One rule action, as clients send it. */
export const act = (action_name: string, action_params: unknown[] = []) => ({
  action_name,
  action_params,
});

/** A conversation's labels, sorted. */
export const labelsOf = async (conversationId: number) =>
  (
    await db()
      .select()
      .from(t.conversationLabels)
      .where(eq(t.conversationLabels.conversationId, conversationId))
      .all()
  )
    .map((l) => l.title)
    .sort();

type RuleValues = Partial<typeof t.automationRules.$inferInsert>;

/** A rule straight through drizzle (no validation), for listing and engine runs. */
export async function createRule(accountId: number, values: RuleValues = {}) {
  const [rule] = await db()
    .insert(t.automationRules)
    .values({
      accountId,
      name: unique("rule"),
      eventName: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }],
      actions: [{ action_name: "add_label", action_params: ["x"] }],
      ...values,
    })
    .returning();
  if (!rule) {
    throw new Error("rule not created");
  }
  return rule;
}

export const rulesOf = (accountId: number) =>
  db().select().from(t.automationRules).where(eq(t.automationRules.accountId, accountId)).all();

/** An attachment on a fresh message of a fresh conversation in `inboxId`. */
export async function createAttachment(accountId: number, inboxId: number, key?: string) {
  const conversation = await createConversation(accountId, inboxId);
  const message = await insertMessage(conversation);
  const [row] = await db()
    .insert(t.attachments)
    .values({
      accountId,
      messageId: message.id,
      fileType: "file",
      storageKey: key ?? `${accountId}/attachments/${crypto.randomUUID()}.txt`,
      fileName: "terms.txt",
      contentType: "text/plain",
      fileSize: 5,
    })
    .returning();
  if (!row) {
    throw new Error("attachment not created");
  }
  return row;
}

export async function defineAttribute(
  accountId: number,
  key: string,
  model: t.AttributeModel,
  type: t.AttributeDisplayType = "text",
) {
  await db().insert(t.customAttributeDefinitions).values({
    accountId,
    attributeKey: key,
    attributeDisplayName: key,
    attributeDisplayType: type,
    attributeModel: model,
  });
}

let eventSeq = 1_000_000;

/** An outbox event as the queue consumer hands it over (not stored: the listener reads ids). */
export function outboxEvent(
  name: OutboxEvent["name"],
  conversation: { id: number; accountId: number },
  payload: OutboxEvent["payload"] = {},
): OutboxEvent {
  return {
    id: ++eventSeq,
    accountId: conversation.accountId,
    name,
    conversationId: conversation.id,
    conversationSeq: null,
    payload: { performed_by: { type: "user", id: 1 }, ...payload },
    createdAt: Math.floor(Date.now() / 1000),
  };
}

/** Outbound HTTP that records each request and answers `status` (DNS lookups: every name public). */
export function recordingOutbound(status = 200) {
  const requests: { url: string; method: string; body: string }[] = [];
  const outbound = async (request: Request) => {
    const doh = dohResponse(request, publicDns);
    if (doh) {
      return doh;
    }
    requests.push({ url: request.url, method: request.method, body: await request.text() });
    return new Response(null, { status });
  };
  return { requests, outbound };
}

export function recordingMailer() {
  const sent: Mail[] = [];
  return { sent, mailer: { send: async (mail: Mail) => void sent.push(mail) } };
}

export const outboxOf = (conversationId: number) =>
  db()
    .select()
    .from(t.eventOutbox)
    .where(eq(t.eventOutbox.conversationId, conversationId))
    .orderBy(t.eventOutbox.id)
    .all();
