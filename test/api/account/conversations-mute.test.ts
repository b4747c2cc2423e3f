// Issue 22: Chatwoot's mute resolves the conversation through `resolved!`, so a mute is a resolve
// with every status hook (the activity note, the status events for webhooks, automation and
// the reports, the CSAT survey), then its own note "Ann has muted the conversation".
import { and, asc, eq, gt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { addInboxMember, db } from "../../support/factories";
import { act, createRule, labelsOf } from "../../support/factories-automation";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
} from "../../support/factories-public";
import { processEvents } from "../../support/factories-webhooks";
import { api } from "../../support/http";

/** A CSAT inbox, a rule labelling resolved conversations, and a way to make conversations. */
async function world() {
  const w = await createPublicWorld({ csatSurveyEnabled: true, enableAutoAssignment: false });
  await addInboxMember(w.inbox.id, w.admin.id);
  await createRule(w.account.id, {
    eventName: "conversation_resolved",
    conditions: [],
    actions: [act("add_label", ["was-resolved"])],
  });
  const conversation = async () => {
    const c = await createPublicConversation(w.base);
    const row = await conversationByUuid(c.conversation.uuid);
    const id = row?.id ?? 0;
    const call = (action: string, body: unknown = {}) =>
      api(`/api/v1/accounts/${w.account.id}/conversations/${row?.displayId}/${action}`, {
        method: "POST",
        token: w.admin.token,
        body,
      });
    expect((await call("assignments", { assignee_id: w.admin.id })).status).toBe(200);
    // What the change itself records from here on (events, and messages after the assignment's).
    const mark = (await processEvents(w.account.id)).at(-1)?.id ?? 0;
    const lastMessage = async () =>
      (
        await db()
          .select()
          .from(t.messages)
          .where(eq(t.messages.conversationId, id))
          .orderBy(asc(t.messages.id))
          .all()
      ).at(-1)?.id ?? 0;
    const since = await lastMessage();
    const events = async () =>
      (
        await db()
          .select()
          .from(t.eventOutbox)
          .where(and(eq(t.eventOutbox.conversationId, id), gt(t.eventOutbox.id, mark)))
          .orderBy(asc(t.eventOutbox.id))
          .all()
      ).map((e) => e.name);
    const said = async (after = since) =>
      (
        await db()
          .select()
          .from(t.messages)
          .where(and(eq(t.messages.conversationId, id), gt(t.messages.id, after)))
          .orderBy(asc(t.messages.id))
          .all()
      ).map((m) => [m.messageType, m.contentType, m.content]);
    const facts = async () =>
      (
        await db()
          .select()
          .from(t.reportingEvents)
          .where(
            and(
              eq(t.reportingEvents.conversationId, id),
              eq(t.reportingEvents.name, "conversation_resolved"),
            ),
          )
          .all()
      ).length;
    return { id, call, events, said, facts, mark, lastMessage };
  };
  return { ...w, conversation };
}

const RESOLVED = [2, "text", "Conversation was marked resolved by %"];
const SURVEY = [3, "input_csat", expect.any(String)];

describe("mute (Chatwoot's Conversation#mute!)", () => {
  it("resolves as toggle_status does: the note, the status events, automation, the reports and the survey", async () => {
    const w = await world();
    const resolved = await w.conversation();
    const muted = await w.conversation();
    expect((await resolved.call("toggle_status", { status: "resolved" })).status).toBe(200);
    expect((await muted.call("mute")).status).toBe(200);
    const name = w.admin.name;
    const note = [RESOLVED[0], RESOLVED[1], String(RESOLVED[2]).replace("%", name)];
    expect(await resolved.said()).toEqual([note, SURVEY]);
    expect(await muted.said()).toEqual([
      note,
      SURVEY,
      [2, "text", `${name} has muted the conversation`],
    ]);
    // The same events in the same order (webhooks, automation and the reports read these).
    const names = await muted.events();
    expect(names).toContain("conversation_status_changed");
    expect(names).toEqual(await resolved.events());
    expect(await muted.facts()).toBe(1);
    // The automation rule on conversation_resolved runs for both.
    await processEvents(w.account.id, Math.min(resolved.mark, muted.mark));
    expect(await labelsOf(muted.id)).toEqual(["was-resolved"]);
    expect(await labelsOf(resolved.id)).toEqual(["was-resolved"]);
    const row = await db()
      .select()
      .from(t.conversations)
      .where(eq(t.conversations.id, muted.id))
      .get();
    expect(row).toMatchObject({ muted: true, status: "resolved" });
  });

  it("already resolved: only the mute's note, no second survey or status event; unmute has its note", async () => {
    const w = await world();
    const c = await w.conversation();
    await c.call("toggle_status", { status: "resolved" });
    const before = await c.events();
    const resolvedAt = await c.lastMessage();
    expect((await c.call("mute")).status).toBe(200);
    expect((await c.call("unmute")).status).toBe(200);
    const name = w.admin.name;
    expect(await c.said(resolvedAt)).toEqual([
      [2, "text", `${name} has muted the conversation`],
      [2, "text", `${name} has unmuted the conversation`],
    ]);
    expect((await c.said()).filter((m) => m[1] === "input_csat")).toHaveLength(1);
    expect((await c.events()).filter((e) => e === "conversation_status_changed")).toHaveLength(
      before.filter((e) => e === "conversation_status_changed").length,
    );
    expect(await c.facts()).toBe(1);
    const row = await db().select().from(t.conversations).where(eq(t.conversations.id, c.id)).get();
    expect(row).toMatchObject({ muted: false, status: "resolved" });
  });
});
