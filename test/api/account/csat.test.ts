import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { db } from "../../support/factories";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../../support/factories-public";
import { api } from "../../support/http";

/** An inbox with CSAT on (a website inbox unless told), one visitor conversation in it. */
async function world(channelType: "Channel::WebWidget" | "Channel::Api" = "Channel::WebWidget") {
  const w = await createPublicWorld({
    csatSurveyEnabled: true,
    channelType,
    enableAutoAssignment: false,
  });
  const c = await createPublicConversation(w.base, { name: "Vera", email: "vera@example.com" });
  const row = await conversationByUuid(c.conversation.uuid);
  const toggle = (status: string) =>
    api(`/api/v1/accounts/${w.account.id}/conversations/${row?.displayId}/toggle_status`, {
      method: "POST",
      token: w.admin.token,
      body: { status },
    });
  return { ...w, ...c, row: row as t.ConversationRow, toggle };
}

const surveysOf = (conversationId: number) =>
  db()
    .select()
    .from(t.messages)
    .where(
      and(eq(t.messages.conversationId, conversationId), eq(t.messages.contentType, "input_csat")),
    )
    .all();

const responsesOf = (conversationId: number) =>
  db()
    .select()
    .from(t.csatSurveyResponses)
    .where(eq(t.csatSurveyResponses.conversationId, conversationId))
    .all();

describe("CSAT survey (inbox csat_survey_enabled)", () => {
  it("resolving sends one input_csat template message, never a second: resolve again, racing resolves and reopens", async () => {
    const w = await world();
    expect((await w.toggle("resolved")).status).toBe(200);
    const [survey, ...more] = await surveysOf(w.row.id);
    expect(more).toEqual([]);
    expect(survey).toMatchObject({
      messageType: 3,
      content: "Please rate the conversation",
      senderId: null,
      contentAttributes: { display_type: "emoji" },
    });
    await w.toggle("open");
    await w.toggle("resolved");
    await Promise.all([
      w.toggle("open"),
      w.toggle("resolved"),
      w.toggle("open"),
      w.toggle("resolved"),
    ]);
    await w.toggle("resolved");
    expect(await surveysOf(w.row.id)).toHaveLength(1);
    // It is a message_created event (webhooks, API inboxes) like any template message.
    const created = await db()
      .select()
      .from(t.eventOutbox)
      .where(
        and(eq(t.eventOutbox.conversationId, w.row.id), eq(t.eventOutbox.name, "message_created")),
      )
      .all();
    expect(
      created.some((e) => (e.payload as { message_id?: number }).message_id === survey?.id),
    ).toBe(true);
  });

  it("no survey when the inbox has it off", async () => {
    const w = await createPublicWorld({ csatSurveyEnabled: false });
    const c = await createPublicConversation(w.base);
    const row = await conversationByUuid(c.conversation.uuid);
    await api(`/api/v1/accounts/${w.account.id}/conversations/${row?.displayId}/toggle_status`, {
      method: "POST",
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect(await surveysOf(row?.id ?? 0)).toEqual([]);
  });

  it("the visitor's answer through the public message update is stored once, as the message's submitted_values, and can be changed", async () => {
    const w = await world();
    await w.toggle("resolved");
    const [survey] = await surveysOf(w.row.id);
    const path = `${w.path}/messages/${survey?.id}`;
    for (const bad of [
      { csat_survey_response: { rating: 6 } },
      { csat_survey_response: { rating: 2.5 } },
      { csat_survey_response: { rating: "5" } },
      { csat_survey_response: { rating: 5, feedback_message: "x".repeat(2001) } },
      { rating: 5 },
    ]) {
      const res = await pub(path, { method: "PATCH", body: { submitted_values: bad } });
      expect(res.status).toBe(422);
    }
    expect(await responsesOf(w.row.id)).toEqual([]);
    const ok = await pub(path, {
      method: "PATCH",
      body: {
        submitted_values: { csat_survey_response: { rating: 4, feedback_message: "Quick" } },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.content_attributes.submitted_values).toEqual({
      csat_survey_response: { rating: 4, feedback_message: "Quick" },
    });
    const again = await pub(path, {
      method: "PATCH",
      body: {
        submitted_values: { csat_survey_response: { rating: 5, feedback_message: "Better" } },
      },
    });
    expect(again.status).toBe(200);
    const rows = await responsesOf(w.row.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      rating: 5,
      feedbackMessage: "Better",
      messageId: survey?.id,
      inboxId: w.inbox.id,
      accountId: w.account.id,
    });
    const updated = await db()
      .select()
      .from(t.eventOutbox)
      .where(
        and(eq(t.eventOutbox.conversationId, w.row.id), eq(t.eventOutbox.name, "message_updated")),
      )
      .all();
    expect(updated).toHaveLength(2);
  });

  it("not even an administrator can answer the survey in the visitor's name through the account API (403, nothing stored)", async () => {
    const w = await world();
    await w.toggle("resolved");
    const [survey] = await surveysOf(w.row.id);
    const url = `/api/v1/accounts/${w.account.id}/conversations/${w.row.displayId}/messages/${survey?.id}`;
    for (const token of [w.admin.token]) {
      const res = await api(url, {
        method: "PATCH",
        token,
        body: {
          content_attributes: {
            submitted_values: { csat_survey_response: { rating: 5, feedback_message: "forged" } },
          },
        },
      });
      expect(res.status).toBe(403);
    }
    expect(await responsesOf(w.row.id)).toEqual([]);
    const [after] = await surveysOf(w.row.id);
    expect(JSON.stringify(after?.contentAttributes)).not.toContain("forged");
  });

  it("an API inbox's survey carries the survey page's link; the public survey API and page answer it", async () => {
    const w = await world("Channel::Api");
    await w.toggle("resolved");
    const [survey] = await surveysOf(w.row.id);
    const link = `https://chat.parley.test/survey/responses/${w.row.uuid}`;
    expect(survey?.content).toBe(`Please rate this conversation, ${link}`);
    const shown = await api(`/public/api/v1/csat_survey/${w.row.uuid}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      id: survey?.id,
      conversation_id: w.row.displayId,
      display_type: "emoji",
      csat_survey_response: null,
      locked: false,
    });
    expect(
      (await api("/public/api/v1/csat_survey/00000000-0000-0000-0000-000000000000")).status,
    ).toBe(404);
    const bad = await api(`/public/api/v1/csat_survey/${w.row.uuid}`, {
      method: "PUT",
      body: { message: { submitted_values: { csat_survey_response: { rating: 0 } } } },
    });
    expect(bad.status).toBe(422);
    const put = await api(`/public/api/v1/csat_survey/${w.row.uuid}`, {
      method: "PUT",
      body: {
        message: {
          submitted_values: {
            csat_survey_response: { rating: 2, feedback_message: '=HYPERLINK("x")' },
          },
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.csat_survey_response).toEqual({
      rating: 2,
      feedback_message: '=HYPERLINK("x")',
    });
    expect(await responsesOf(w.row.id)).toHaveLength(1);

    // The page: server-rendered, strict CSP, a form that works without JavaScript.
    const page = await api(`/survey/responses/${w.row.uuid}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).not.toContain("script-src");
    expect(page.body).toContain(`action="/survey/responses/${w.row.uuid}"`);
    expect(page.body).toContain('value="2" required checked');
    expect(page.body).toContain("=HYPERLINK(&quot;x&quot;)");
    const form = new FormData();
    form.set("rating", "5");
    form.set("feedback_message", "<script>alert(1)</script>");
    const posted = await api(`/survey/responses/${w.row.uuid}`, { method: "POST", raw: form });
    expect(posted.status).toBe(200);
    expect(posted.body).toContain("Thank you");
    expect(posted.body).not.toContain("<script>alert");
    const noRating = new FormData();
    const refused = await api(`/survey/responses/${w.row.uuid}`, { method: "POST", raw: noRating });
    expect(refused.status).toBe(422);
    expect((await api("/survey/responses/nope")).status).toBe(404);
    const [stored] = await responsesOf(w.row.id);
    expect(stored).toMatchObject({ rating: 5, feedbackMessage: "<script>alert(1)</script>" });
  });

  it("GET …/csat_survey_responses lists, filters and pages; metrics and the CSV (formula-safe)", async () => {
    const w = await world("Channel::Api");
    await w.toggle("resolved");
    await api(`/public/api/v1/csat_survey/${w.row.uuid}`, {
      method: "PUT",
      body: {
        message: {
          submitted_values: { csat_survey_response: { rating: 1, feedback_message: "=1+2" } },
        },
      },
    });
    // A second conversation of the same account, surveyed but not answered.
    const other = await createPublicConversation(w.base);
    const otherRow = await db()
      .select()
      .from(t.conversations)
      .where(eq(t.conversations.uuid, other.conversation.uuid))
      .get();
    await api(
      `/api/v1/accounts/${w.account.id}/conversations/${otherRow?.displayId}/toggle_status`,
      {
        method: "POST",
        token: w.admin.token,
        body: { status: "resolved" },
      },
    );
    const base = `/api/v1/accounts/${w.account.id}/csat_survey_responses`;
    const list = await api(base, { token: w.admin.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      rating: 1,
      feedback_message: "=1+2",
      conversation_id: w.row.displayId,
      contact: { name: "Vera", email: "vera@example.com" },
    });
    expect((await api(`${base}?rating=5`, { token: w.admin.token })).body).toEqual([]);
    expect((await api(`${base}?rating=1,2`, { token: w.admin.token })).body).toHaveLength(1);
    expect(
      (await api(`${base}?inbox_id=${w.inbox.id + 1000}`, { token: w.admin.token })).body,
    ).toEqual([]);
    expect((await api(`${base}?page=2`, { token: w.admin.token })).body).toEqual([]);
    expect((await api(`${base}?rating=abc`, { token: w.admin.token })).status).toBe(422);
    const metrics = await api(`${base}/metrics`, { token: w.admin.token });
    expect(metrics.body).toEqual({
      total_count: 1,
      ratings_count: { "1": 1 },
      total_sent_messages_count: 2,
      response_rate: 50,
      satisfaction_score: 0,
    });
    const csv = await api(`${base}/download`, { token: w.admin.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = String(csv.body)
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines[0]).toBe(
      "Agent Name,Rating,Feedback Comment,Contact Name,Contact Email Address,Contact Phone Number,Link to the conversation,Recorded date",
    );
    expect(lines[1]).toContain(`,1,"'=1+2",Vera,vera@example.com,,`);
    // Another account sees nothing of it; agents may not read it.
    const stranger = await createPublicWorld();
    expect(
      (
        await api(`/api/v1/accounts/${stranger.account.id}/csat_survey_responses`, {
          token: stranger.admin.token,
        })
      ).body,
    ).toEqual([]);
  });
});
