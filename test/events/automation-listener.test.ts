import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { AsyncListenerContext, OutboxEvent } from "../../worker/events/outbox-types";
import { bindingMailer } from "../../worker/lib/mail";
import {
  automationListener,
  createAutomationListener,
} from "../../worker/modules/automation-rules/listener";
import { attemptDelivery } from "../../worker/modules/webhooks/delivery";
import { addInboxMember, createAgent, createTeam, createWorld, db } from "../support/factories";
import {
  act,
  cond,
  createRule,
  labelsOf,
  outboxEvent,
  outboxOf,
  recordingMailer,
  recordingOutbound,
} from "../support/factories-automation";
import {
  type ConversationRow,
  conversationRow,
  createConversation,
  insertMessage,
  MT,
} from "../support/factories-conversations";

const ctx = (outbound = recordingOutbound().outbound): AsyncListenerContext => ({
  env,
  db: db(),
  now: () => Math.floor(Date.now() / 1000),
  outbound,
});

const messagesOf = (conversationId: number) =>
  db().select().from(t.messages).where(eq(t.messages.conversationId, conversationId)).all();

async function world() {
  const w = await createWorld();
  const conversation = await createConversation(w.account.id, w.inbox.id);
  return { ...w, conversation };
}

describe("conversation_created", () => {
  it("assigns and labels a new conversation of the inbox the rule names", async () => {
    const { account, agent, inbox, conversation } = await world();
    await addInboxMember(inbox.id, agent.id);
    await createRule(account.id, {
      conditions: [cond("inbox_id", "equal_to", [inbox.id])],
      actions: [act("assign_agent", [agent.id]), act("add_label", ["billing"])],
    });
    await automationListener(outboxEvent("conversation_created", conversation), ctx());
    const row = await conversationRow(conversation.id);
    expect(row?.assigneeId).toBe(agent.id);
    expect(await labelsOf(conversation.id)).toEqual(["billing"]);
  });

  it("leaves conversations the conditions do not match, inactive rules and other accounts' rules", async () => {
    const { account, inbox, conversation } = await world();
    const other = await world();
    await createRule(account.id, {
      conditions: [cond("inbox_id", "equal_to", [inbox.id + 100_000])],
      actions: [act("add_label", ["nope"])],
    });
    await createRule(account.id, {
      active: false,
      conditions: [cond("inbox_id", "equal_to", [inbox.id])],
      actions: [act("add_label", ["inactive"])],
    });
    await createRule(other.account.id, {
      conditions: [cond("status", "equal_to", ["open"])],
      actions: [act("add_label", ["foreign"])],
    });
    await createRule(account.id, {
      eventName: "conversation_updated",
      conditions: [cond("status", "equal_to", ["open"])],
      actions: [act("add_label", ["wrong-event"])],
    });
    await automationListener(outboxEvent("conversation_created", conversation), ctx());
    expect(await labelsOf(conversation.id)).toEqual([]);
  });

  it("ignores an event for a conversation of another account", async () => {
    const { account, conversation } = await world();
    const other = await world();
    await createRule(account.id, { actions: [act("add_label", ["x"])] });
    const forged = {
      ...outboxEvent("conversation_created", other.conversation),
      accountId: account.id,
    };
    await automationListener(forged, ctx());
    expect(await labelsOf(other.conversation.id)).toEqual([]);
    expect(await labelsOf(conversation.id)).toEqual([]);
  });

  it("runs every matching rule, oldest first", async () => {
    const { account, conversation } = await world();
    await createRule(account.id, { actions: [act("change_priority", ["low"])] });
    await createRule(account.id, { actions: [act("change_priority", ["urgent"])] });
    await automationListener(outboxEvent("conversation_created", conversation), ctx());
    expect((await conversationRow(conversation.id))?.priority).toBe("urgent");
  });
});

describe("loop prevention", () => {
  it("a rule re-triggered by its own change stops after one round", async () => {
    const { account, conversation } = await world();
    const rule = await createRule(account.id, {
      eventName: "conversation_updated",
      conditions: [cond("status", "equal_to", ["open"])],
      actions: [act("add_label", ["looped"]), act("change_priority", ["high"])],
    });
    const first = outboxEvent("conversation_updated", conversation, {
      changed_attributes: { priority: { previous_value: null, current_value: "low" } },
    });
    await automationListener(first, ctx());
    expect(await labelsOf(conversation.id)).toEqual(["looped"]);

    // The rule's own changes were recorded as events, attributed to the rule.
    const caused = await outboxOf(conversation.id);
    expect(caused.map((e) => e.name).sort()).toEqual([
      "conversation_updated",
      "conversation_updated",
    ]);
    for (const row of caused) {
      expect((row.payload as OutboxEvent["payload"]).performed_by).toEqual({
        type: "automation_rule",
        id: rule.id,
      });
    }
    // Handing them back to the listener (as the queue consumer would) changes nothing more.
    await db()
      .delete(t.conversationLabels)
      .where(eq(t.conversationLabels.conversationId, conversation.id));
    for (const row of caused) {
      await automationListener(
        {
          id: row.id,
          accountId: row.accountId,
          name: row.name as OutboxEvent["name"],
          conversationId: row.conversationId,
          conversationSeq: row.conversationSeq,
          payload: row.payload as OutboxEvent["payload"],
          createdAt: row.createdAt,
        },
        ctx(),
      );
    }
    expect(await labelsOf(conversation.id)).toEqual([]);
    expect(await outboxOf(conversation.id)).toHaveLength(2);
  });

  it("ignores any event performed by an automation rule, whichever rule", async () => {
    const { account, conversation } = await world();
    await createRule(account.id, { actions: [act("add_label", ["x"])] });
    const event = outboxEvent("conversation_created", conversation, {
      performed_by: { type: "automation_rule", id: 999 },
    });
    await automationListener(event, ctx());
    expect(await labelsOf(conversation.id)).toEqual([]);
  });
});

describe("conversation_updated, conversation_opened, conversation_resolved", () => {
  it("matches attribute_changed against the event's changed_attributes", async () => {
    const { account, conversation } = await world();
    await createRule(account.id, {
      eventName: "conversation_updated",
      conditions: [cond("priority", "attribute_changed", [{ from: ["nil"], to: ["urgent"] }])],
      actions: [act("add_label", ["escalated"])],
    });
    const noise = outboxEvent("conversation_updated", conversation, {
      changed_attributes: { priority: { previous_value: null, current_value: "low" } },
    });
    await automationListener(noise, ctx());
    expect(await labelsOf(conversation.id)).toEqual([]);
    const hit = outboxEvent("conversation_updated", conversation, {
      changed_attributes: { priority: { previous_value: null, current_value: "urgent" } },
    });
    await automationListener(hit, ctx());
    expect(await labelsOf(conversation.id)).toEqual(["escalated"]);
  });

  it("runs conversation_resolved and conversation_opened rules on status changes", async () => {
    const { account, inbox } = await world();
    const conversation = await createConversation(account.id, inbox.id, { status: "resolved" });
    await createRule(account.id, {
      eventName: "conversation_resolved",
      actions: [act("add_label", ["done"])],
      conditions: [cond("status", "equal_to", ["resolved"])],
    });
    await createRule(account.id, {
      eventName: "conversation_opened",
      actions: [act("add_label", ["again"])],
      conditions: [cond("status", "equal_to", ["open"])],
    });
    const resolved = outboxEvent("conversation_status_changed", conversation, {
      changed_attributes: { status: { previous_value: "open", current_value: "resolved" } },
    });
    await automationListener(resolved, ctx());
    expect(await labelsOf(conversation.id)).toEqual(["done"]);

    await db()
      .update(t.conversations)
      .set({ status: "open" })
      .where(eq(t.conversations.id, conversation.id));
    // Without changed_attributes the status is read from the conversation.
    await automationListener(outboxEvent("conversation_status_changed", conversation), ctx());
    expect(await labelsOf(conversation.id)).toEqual(["again", "done"]);
  });
});

describe("message_created", () => {
  it("answers an incoming message that mentions an invoice, and notes it privately", async () => {
    const { account, conversation } = await world();
    const rule = await createRule(account.id, {
      eventName: "message_created",
      conditions: [
        { ...cond("message_type", "equal_to", ["incoming"]), query_operator: "and" },
        cond("content", "contains", ["invoice"]),
      ],
      actions: [act("send_message", ["We will send it"]), act("add_private_note", ["Billing"])],
    });
    const message = await insertMessage(conversation, { content: "My INVOICE is wrong" });
    await automationListener(
      outboxEvent("message_created", conversation, { message_id: message.id }),
      ctx(),
    );
    const written = (await messagesOf(conversation.id)).filter((m) => m.id !== message.id);
    expect(
      written.map((m) => ({
        content: m.content,
        type: m.messageType,
        private: m.private,
        sender: m.senderType,
        rule: m.contentAttributes.automation_rule_id,
      })),
    ).toEqual([
      {
        content: "We will send it",
        type: MT.outgoing,
        private: false,
        sender: null,
        rule: rule.id,
      },
      { content: "Billing", type: MT.outgoing, private: true, sender: null, rule: rule.id },
    ]);
    const events = await outboxOf(conversation.id);
    expect(events.filter((e) => e.name === "message_created")).toHaveLength(2);
  });

  it("writes the rule's messages once when the queue hands the event over again", async () => {
    const { account, conversation } = await world();
    await createRule(account.id, {
      eventName: "message_created",
      conditions: [cond("message_type", "equal_to", ["incoming"])],
      actions: [act("send_message", ["Thanks"]), act("add_label", ["seen"])],
    });
    const message = await insertMessage(conversation, { content: "hi" });
    const event = outboxEvent("message_created", conversation, { message_id: message.id });
    await automationListener(event, ctx());
    await automationListener(event, ctx());
    const replies = (await messagesOf(conversation.id)).filter((m) => m.content === "Thanks");
    expect(replies).toHaveLength(1);
    expect(await labelsOf(conversation.id)).toEqual(["seen"]);
  });

  it("skips activity messages and messages that do not match", async () => {
    const { account, conversation } = await world();
    await createRule(account.id, {
      eventName: "message_created",
      conditions: [cond("content", "contains", ["invoice"])],
      actions: [act("add_label", ["billing"])],
    });
    const activity = await insertMessage(conversation, {
      content: "invoice",
      messageType: MT.activity,
    });
    const other = await insertMessage(conversation, { content: "hello" });
    for (const m of [activity, other]) {
      await automationListener(
        outboxEvent("message_created", conversation, { message_id: m.id }),
        ctx(),
      );
    }
    expect(await labelsOf(conversation.id)).toEqual([]);
  });
});

describe("actions", () => {
  async function run(conversation: ConversationRow, actions: ReturnType<typeof act>[], c = ctx()) {
    await createRule(conversation.accountId, {
      actions,
      conditions: [cond("inbox_id", "is_present")],
    });
    await automationListener(outboxEvent("conversation_created", conversation), c);
    return conversationRow(conversation.id);
  }

  it("goes on after a failing action, and logs the failure", async () => {
    const { account, inbox } = await world();
    const conversation = await createConversation(account.id, inbox.id);
    const outsider = await createAgent(account.id); // not a member of the inbox
    const logged: Record<string, unknown>[] = [];
    await createRule(account.id, {
      actions: [act("assign_agent", [outsider.id]), act("add_label", ["after"])],
    });
    const listener = createAutomationListener({ log: (e) => logged.push(e) });
    await listener(outboxEvent("conversation_created", conversation), ctx());
    expect((await conversationRow(conversation.id))?.assigneeId).toBeNull();
    expect(await labelsOf(conversation.id)).toEqual(["after"]);
    expect(logged).toEqual([expect.objectContaining({ action: "assign_agent", level: "error" })]);
  });

  it("assigns and unassigns teams and agents", async () => {
    const { account, admin, inbox } = await world();
    const team = await createTeam(account.id);
    const conversation = await createConversation(account.id, inbox.id, { priority: "low" });
    let row = await run(conversation, [
      act("assign_team", [team.id]),
      act("assign_agent", [admin.id]),
    ]);
    expect({ team: row?.teamId, assignee: row?.assigneeId }).toEqual({
      team: team.id,
      assignee: admin.id,
    });
    await db().delete(t.automationRules).where(eq(t.automationRules.accountId, account.id));
    row = await run(conversation, [act("remove_assigned_team"), act("assign_agent", ["nil"])]);
    expect({ team: row?.teamId, assignee: row?.assigneeId }).toEqual({
      team: null,
      assignee: null,
    });
  });

  it.each([
    ["change_status", ["pending"], { status: "pending" }],
    ["resolve_conversation", [], { status: "resolved" }],
    ["snooze_conversation", [], { status: "snoozed" }],
    ["pending_conversation", [], { status: "pending" }],
    ["mute_conversation", [], { muted: true, status: "resolved" }],
    ["change_priority", ["nil"], { priority: null }],
  ])("%s", async (name, params, expected) => {
    const { account, inbox } = await world();
    const conversation = await createConversation(account.id, inbox.id, { priority: "high" });
    expect(await run(conversation, [act(name, params)])).toMatchObject(expected);
  });

  it("open_conversation and remove_assigned_agent", async () => {
    const { account, admin, inbox } = await world();
    const conversation = await createConversation(account.id, inbox.id, {
      status: "pending",
      assigneeId: admin.id,
    });
    const row = await run(conversation, [act("open_conversation"), act("remove_assigned_agent")]);
    expect({ status: row?.status, assignee: row?.assigneeId }).toEqual({
      status: "open",
      assignee: null,
    });
  });

  it("remove_label keeps the other labels", async () => {
    const { account, inbox } = await world();
    const conversation = await createConversation(account.id, inbox.id, {
      labels: ["a", "b", "c"],
    });
    await run(conversation, [act("remove_label", ["b", "c"]), act("add_label", ["d"])]);
    expect(await labelsOf(conversation.id)).toEqual(["a", "d"]);
  });

  it("send_webhook_event delivers the conversation as automation_event.<event_name>", async () => {
    const { account, conversation } = await world();
    const rule = await createRule(account.id, {
      actions: [act("send_webhook_event", ["https://hooks.example.com/in"])],
    });
    const event = outboxEvent("conversation_created", conversation);
    await automationListener(event, ctx());
    await automationListener(event, ctx()); // the queue may hand an event over twice
    const deliveries = await db()
      .select()
      .from(t.webhookDeliveries)
      .where(eq(t.webhookDeliveries.eventId, event.id))
      .all();
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery).toMatchObject({
      targetType: "automation",
      targetId: rule.id,
      event: "automation_event.conversation_created",
      url: "https://hooks.example.com/in",
      status: "pending",
    });
    // The webhooks module sends it: one unsigned POST of the conversation's webhook data.
    const receiver = recordingOutbound();
    const outcome = await attemptDelivery(
      { env, db: db(), outbound: receiver.outbound, now: () => Math.floor(Date.now() / 1000) },
      delivery?.id ?? 0,
    );
    expect(outcome).toEqual({ kind: "done", status: "succeeded" });
    expect(receiver.requests).toHaveLength(1);
    const body = JSON.parse(receiver.requests[0]?.body ?? "{}");
    expect(body).toMatchObject({
      event: "automation_event.conversation_created",
      id: conversation.displayId,
      inbox_id: conversation.inboxId,
    });
  });

  it("send_webhook_event refuses a private address at send time", async () => {
    const { account, conversation } = await world();
    const logged: Record<string, unknown>[] = [];
    await createRule(account.id, {
      actions: [act("send_webhook_event", ["http://192.168.1.5/x"])],
    });
    const event = outboxEvent("conversation_created", conversation);
    await createAutomationListener({ log: (e) => logged.push(e) })(event, ctx());
    const deliveries = await db()
      .select()
      .from(t.webhookDeliveries)
      .where(eq(t.webhookDeliveries.eventId, event.id))
      .all();
    expect(deliveries).toEqual([]);
    expect(logged).toEqual([expect.objectContaining({ action: "send_webhook_event" })]);
  });

  it("send_email_to_team mails each team's members; send_email_transcript the chat", async () => {
    const { account, admin, agent, conversation } = await world();
    const team = await createTeam(account.id);
    await db()
      .insert(t.teamMembers)
      .values([
        { teamId: team.id, userId: admin.id },
        { teamId: team.id, userId: agent.id },
      ]);
    await insertMessage(conversation, { content: "Hello there" });
    await insertMessage(conversation, {
      content: "secret",
      messageType: MT.outgoing,
      private: true,
    });
    await createRule(account.id, {
      actions: [
        act("send_email_to_team", [{ team_ids: [team.id], message: "Please look" }]),
        act("send_email_transcript", ["a@example.com, b@example.org"]),
      ],
    });
    const { sent, mailer } = recordingMailer();
    await createAutomationListener({ mailer: () => mailer })(
      outboxEvent("conversation_created", conversation),
      ctx(),
    );
    expect(sent).toHaveLength(2);
    expect(sent[0]?.to.sort()).toEqual([admin.email, agent.email].sort());
    expect(sent[0]?.text).toContain("Please look");
    expect(sent[1]?.to).toEqual(["a@example.com", "b@example.org"]);
    expect(sent[1]?.text).toContain("Hello there");
    expect(sent[1]?.text).not.toContain("secret");
  });

  it("the send_email binding accepts the mail locally", async () => {
    await expect(
      bindingMailer(env).send({ to: ["someone@example.com"], subject: "s", text: "t" }),
    ).resolves.toBeUndefined();
  });

  it("send_attachment posts the account's stored files in one outgoing message", async () => {
    const { account, conversation } = await world();
    const key = `${account.id}/attachments/${crypto.randomUUID()}.txt`;
    await env.FILES.put(key, "terms", { httpMetadata: { contentType: "text/plain" } });
    const source = await insertMessage(conversation, { content: "with file" });
    const [file] = await db()
      .insert(t.attachments)
      .values({
        accountId: account.id,
        messageId: source.id,
        fileType: "file",
        storageKey: key,
        fileName: "terms.txt",
        contentType: "text/plain",
        fileSize: 5,
      })
      .returning();
    const rule = await createRule(account.id, { actions: [act("send_attachment", [file?.id])] });
    await automationListener(outboxEvent("conversation_created", conversation), ctx());
    const sent = (await messagesOf(conversation.id)).find(
      (m) => m.contentAttributes.automation_rule_id === rule.id,
    );
    expect(sent?.messageType).toBe(MT.outgoing);
    const copies = await db()
      .select()
      .from(t.attachments)
      .where(
        and(eq(t.attachments.messageId, sent?.id ?? 0), eq(t.attachments.fileName, "terms.txt")),
      )
      .all();
    expect(copies).toHaveLength(1);
  });
});
