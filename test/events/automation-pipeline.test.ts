import { describe, expect, it } from "vitest";
import type { OutboxEvent } from "../../worker/events/outbox-types";
import { createWorld } from "../support/factories";
import { conversationRow, createContact } from "../support/factories-conversations";
import { outboxRows, processEvents, recordingOutbound } from "../support/factories-webhooks";
import { api } from "../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}`;

/** Runs the queue consumer until the account's outbox stops growing; returns how many rounds. */
async function drain(accountId: number, afterId: number) {
  const { outbound } = recordingOutbound();
  let last = afterId;
  for (let round = 1; round <= 10; round++) {
    const rows = await processEvents(accountId, last, { outbound });
    if (rows.length === 0) {
      return round - 1;
    }
    last = rows[rows.length - 1]?.id ?? last;
  }
  throw new Error("the outbox never stopped growing (a rule loop)");
}

describe("automation through the event pipeline", () => {
  it("assigns and labels new conversations, and rule loops stop", async () => {
    const { account, admin, inbox } = await createWorld();
    const rule = (body: Record<string, unknown>) =>
      api(`${base(account.id)}/automation_rules`, { method: "POST", token: admin.token, body });
    const created = await rule({
      name: "Route new conversations",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "inbox_id", filter_operator: "equal_to", values: [inbox.id] }],
      actions: [
        { action_name: "assign_agent", action_params: [admin.id] },
        { action_name: "add_label", action_params: ["billing"] },
      ],
    });
    expect(created.status).toBe(200);
    // Would re-trigger itself forever if a rule's own changes ran rules.
    const updated = await rule({
      name: "Escalate billing",
      event_name: "conversation_updated",
      conditions: [{ attribute_key: "labels", filter_operator: "equal_to", values: ["billing"] }],
      actions: [
        { action_name: "add_label", action_params: ["seen"] },
        { action_name: "change_priority", action_params: ["high"] },
      ],
    });
    expect(updated.status).toBe(200);

    const before = (await outboxRows(account.id)).at(-1)?.id ?? 0;
    const contact = await createContact(account.id);
    const res = await api(`${base(account.id)}/conversations`, {
      method: "POST",
      token: admin.token,
      body: { inbox_id: inbox.id, contact_id: contact.id },
    });
    expect(res.status).toBe(200);
    const conversationId = (await outboxRows(account.id, before))[0]?.conversationId ?? 0;

    // conversation_created runs the first rule; the events its actions cause run none.
    expect(await drain(account.id, before)).toBe(2);
    let row = await conversationRow(conversationId);
    expect(row?.assigneeId).toBe(admin.id);
    let labels = await api(`${base(account.id)}/conversations/${row?.displayId}/labels`, {
      token: admin.token,
    });
    expect(labels.body.payload).toEqual(["billing"]);
    expect(row?.priority).toBeNull();
    const byRule = (await outboxRows(account.id, before))
      .map((r) => (r.payload as OutboxEvent["payload"]).performed_by)
      .filter((p) => p?.type === "automation_rule");
    expect(byRule.length).toBeGreaterThan(0);
    expect(new Set(byRule.map((p) => p?.id))).toEqual(new Set([created.body.payload.id]));

    // A person's change runs the second rule once; its own changes run nothing more.
    const mark = (await outboxRows(account.id)).at(-1)?.id ?? 0;
    const patch = await api(`${base(account.id)}/conversations/${row?.displayId}/toggle_priority`, {
      method: "POST",
      token: admin.token,
      body: { priority: "low" },
    });
    expect(patch.status).toBe(200);
    expect(await drain(account.id, mark)).toBe(2);
    row = await conversationRow(conversationId);
    expect(row?.priority).toBe("high");
    labels = await api(`${base(account.id)}/conversations/${row?.displayId}/labels`, {
      token: admin.token,
    });
    expect(labels.body.payload).toEqual(["billing", "seen"]);
    // Chatwoot's priority notes: the person's, then the rule's signed "Automation System".
    const messages = await api(`${base(account.id)}/conversations/${row?.displayId}/messages`, {
      token: admin.token,
    });
    const notes = (messages.body.payload as { message_type: number; content: string }[])
      .filter((m) => m.message_type === 2 && m.content.includes("priority"))
      .map((m) => m.content);
    expect(notes).toEqual([
      `${admin.name} set the priority to low`,
      "Automation System changed the priority from low to high",
    ]);
  });
});
