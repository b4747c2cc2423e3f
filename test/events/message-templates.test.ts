import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { nowSeconds } from "../../worker/lib/time";
import { templatesFor } from "../../worker/modules/templates/listener";
import { db } from "../support/factories";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../support/factories-public";
import { outboxRows, processEvents } from "../support/factories-webhooks";

const week = (day: Partial<t.WorkingHour>) =>
  Array.from({ length: 7 }, (_, d) => ({
    day_of_week: d,
    closed_all_day: false,
    open_all_day: false,
    open_hour: null,
    open_minutes: null,
    close_hour: null,
    close_minutes: null,
    ...day,
  }));

/** A visitor's conversation in a fresh inbox, and a way to say something and let the queue run. */
async function chat(inbox: Partial<typeof t.inboxes.$inferInsert>, contact: unknown = {}) {
  const w = await createPublicWorld({ enableAutoAssignment: false, ...inbox });
  const c = await createPublicConversation(w.base, contact);
  const row = await conversationByUuid(c.conversation.uuid);
  const say = async (content: string) => {
    const res = await pub(`${c.path}/messages`, { method: "POST", body: { content } });
    expect(res.status).toBe(200);
    // The queue, twice over: a redelivered event must not send anything twice.
    await processEvents(w.account.id);
    await processEvents(w.account.id);
  };
  const templates = async () =>
    (
      await db()
        .select()
        .from(t.messages)
        .where(and(eq(t.messages.conversationId, row?.id ?? 0), eq(t.messages.messageType, 3)))
        .orderBy(asc(t.messages.id))
        .all()
    ).map((m) => [m.contentType, m.content]);
  return { ...w, row: row as t.ConversationRow, say, templates };
}

describe("message templates (Chatwoot's MessageTemplates::HookExecutionService)", () => {
  it("greeting: once, on the contact's first message, as a template message with its event (API inboxes too)", async () => {
    const w = await chat({ greetingEnabled: true, greetingMessage: "Hello! We reply fast." });
    await w.say("hi");
    await w.say("anyone?");
    expect(await w.templates()).toEqual([["text", "Hello! We reply fast."]]);
    const events = await outboxRows(w.account.id);
    const created = events.filter((e) => e.name === "message_created");
    expect(created).toHaveLength(3);
  });

  it("no greeting when it is off or blank", async () => {
    const off = await chat({ greetingEnabled: false, greetingMessage: "Hello" });
    await off.say("hi");
    expect(await off.templates()).toEqual([]);
    const blank = await chat({ greetingEnabled: true, greetingMessage: "  " });
    await blank.say("hi");
    expect(await blank.templates()).toEqual([]);
  });

  it("out of office: outside working hours, once a day, and then no greeting", async () => {
    const w = await chat({
      workingHoursEnabled: true,
      workingHours: week({ closed_all_day: true }),
      outOfOfficeMessage: "We are away until Monday.",
      greetingEnabled: true,
      greetingMessage: "Hello!",
    });
    await w.say("hi");
    await w.say("hello?");
    expect(await w.templates()).toEqual([["text", "We are away until Monday."]]);
  });

  it("no out-of-office message inside working hours (open all day): the greeting instead", async () => {
    const w = await chat({
      workingHoursEnabled: true,
      workingHours: week({ open_all_day: true }),
      outOfOfficeMessage: "Away",
      greetingEnabled: true,
      greetingMessage: "Hello!",
    });
    await w.say("hi");
    expect(await w.templates()).toEqual([["text", "Hello!"]]);
  });

  it("email collection: a website inbox's contact without email is asked once (text, then input_email)", async () => {
    const w = await chat({ channelType: "Channel::WebWidget", enableEmailCollect: true });
    const inbox = await db().select().from(t.inboxes).where(eq(t.inboxes.id, w.inbox.id)).get();
    const plan = (row: t.ConversationRow) =>
      templatesFor(db(), inbox as t.InboxRow, row, nowSeconds());
    expect((await plan(w.row)).map((x) => [x.contentType ?? "text", x.content])).toEqual([
      ["text", "Give the team a way to reach you."],
      ["input_email", "Get notified by email"],
    ]);
    const known = await chat(
      { channelType: "Channel::WebWidget", enableEmailCollect: true },
      { email: "known@example.com" },
    );
    expect(await plan(known.row)).toEqual([]);
    // Asked once: after the queue sent it, nothing more.
    await w.say("hi");
    expect(await plan(w.row)).toEqual([]);
    const api = await chat({ channelType: "Channel::Api", enableEmailCollect: true });
    await api.say("hi");
    expect(await api.templates()).toEqual([]);
  });

  it("website inboxes get them all as messages, in Chatwoot's order, each once; the email answer is stored", async () => {
    const w = await chat({
      channelType: "Channel::WebWidget",
      enableEmailCollect: true,
      greetingEnabled: true,
      greetingMessage: "Hello from the website",
    });
    await w.say("hi");
    await w.say("still there?");
    expect(await w.templates()).toEqual([
      ["text", "Hello from the website"],
      ["text", "Give the team a way to reach you."],
      ["input_email", "Get notified by email"],
    ]);
    // Each went out as a message_created event (webhooks, the agents' feed, the widget's room).
    const created = (await outboxRows(w.account.id)).filter((e) => e.name === "message_created");
    expect(created).toHaveLength(5);
    // The visitor answers the input_email message through the public update (the widget's path).
    const ask = await db()
      .select()
      .from(t.messages)
      .where(
        and(eq(t.messages.conversationId, w.row.id), eq(t.messages.contentType, "input_email")),
      )
      .get();
    const c = await db()
      .select()
      .from(t.contactInboxes)
      .where(eq(t.contactInboxes.contactId, w.row.contactId))
      .get();
    const path = `${w.base}/contacts/${c?.sourceId}/conversations/${w.row.displayId}/messages/${ask?.id}`;
    const values = [{ name: "email", title: "Email", value: "visitor@example.com" }];
    const res = await pub(path, { method: "PATCH", body: { submitted_values: values } });
    expect(res.status).toBe(200);
    expect(res.body.content_attributes.submitted_values).toEqual(values);
    // A third message asks nothing again.
    await w.say("thanks");
    expect(await w.templates()).toHaveLength(3);
  });
});
