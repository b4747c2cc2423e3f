// Issue 22: satisfaction (CSAT answers) in the account reports — the summaries per agent, team,
// inbox and label, the range totals with the range before, the CSV — and the CSAT reads bounded
// by indexes (query plans), the surveys-sent count included when no range is given.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { surveysSent } from "../../worker/modules/csat/queries";
import { csatTotals } from "../../worker/modules/reports/queries.csat";
import {
  addInboxMember,
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
  createTeam,
} from "../support/factories";
import { conversationByUuid, createPublicConversation } from "../support/factories-public";
import { api } from "../support/http";
import { queryPlan } from "../support/query-plan";

type World = Awaited<ReturnType<typeof world>>;

async function world() {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const x = await createAgent(account.id);
  const y = await createAgent(account.id);
  const inbox = await createInbox(account.id, {
    csatSurveyEnabled: true,
    enableAutoAssignment: false,
  });
  await addInboxMember(inbox.id, x.id);
  await addInboxMember(inbox.id, y.id);
  const team = await createTeam(account.id);
  const label = await api(`/api/v1/accounts/${account.id}/labels`, {
    method: "POST",
    token: admin.token,
    body: { title: "vip" },
  });
  expect(label.status).toBe(200);
  return { account, admin, x, y, inbox, team, labelId: label.body.id as number };
}

/** A conversation assigned (and teamed, labelled) as told, resolved, its survey rated. */
async function rated(w: World, assigneeId: number, rating: number, team = false, vip = false) {
  const c = await createPublicConversation(w.inbox.inboxIdentifier);
  const row = await conversationByUuid(c.conversation.uuid);
  const path = `/api/v1/accounts/${w.account.id}/conversations/${row?.displayId}`;
  const call = (url: string, body: unknown) =>
    api(`${path}${url}`, { method: "POST", token: w.admin.token, body });
  expect((await call("/assignments", { assignee_id: assigneeId })).status).toBe(200);
  if (team) {
    expect((await call("/assignments", { team_id: w.team.id })).status).toBe(200);
  }
  if (vip) {
    expect((await call("/labels", { labels: ["vip"] })).status).toBe(200);
  }
  expect((await call("/toggle_status", { status: "resolved" })).status).toBe(200);
  const answer = await api(`/public/api/v1/csat_survey/${row?.uuid}`, {
    method: "PUT",
    body: { message: { submitted_values: { csat_survey_response: { rating } } } },
  });
  expect(answer.status).toBe(200);
}

describe("satisfaction in the reports", () => {
  let w: World;
  let now: number;
  const get = (url: string) =>
    api(`/api/v2/accounts/${w.account.id}/${url}`, { token: w.admin.token });
  const row = (rows: { id: number }[], id: number) => rows.find((r) => r.id === id);

  beforeAll(async () => {
    w = await world();
    now = Math.floor(Date.now() / 1000);
    await rated(w, w.x.id, 5, true, true);
    await rated(w, w.x.id, 4, true, true);
    await rated(w, w.x.id, 2);
    await rated(w, w.y.id, 1);
  });

  it("per agent (the one the survey was sent for), team, inbox and label; null without answers", async () => {
    const agents = (await get("summary_reports/agent")).body;
    expect(row(agents, w.x.id)).toMatchObject({
      csat_responses_count: 3,
      csat_satisfaction_score: 66.67,
    });
    expect(row(agents, w.y.id)).toMatchObject({
      csat_responses_count: 1,
      csat_satisfaction_score: 0,
    });
    expect(row(agents, w.admin.id)).toMatchObject({
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
    expect(row((await get("summary_reports/team")).body, w.team.id)).toMatchObject({
      csat_responses_count: 2,
      csat_satisfaction_score: 100,
    });
    expect(row((await get("summary_reports/inbox")).body, w.inbox.id)).toMatchObject({
      csat_responses_count: 4,
      csat_satisfaction_score: 50,
    });
    expect(row((await get("summary_reports/label")).body, w.labelId)).toMatchObject({
      csat_responses_count: 2,
      csat_satisfaction_score: 100,
    });
  });

  it("within the range only: the range's totals, the range before, an empty range", async () => {
    const range = `since=${now - 600}&until=${now + 600}`;
    const account = await get(`reports/summary?type=account&${range}`);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({
      csat_responses_count: 4,
      csat_satisfaction_score: 50,
      previous: { csat_responses_count: 0, csat_satisfaction_score: null },
    });
    const agent = await get(`reports/summary?type=agent&id=${w.x.id}&${range}`);
    expect(agent.body).toMatchObject({ csat_responses_count: 3, csat_satisfaction_score: 66.67 });
    // The same range moved on: these answers are its "previous".
    const later = await get(`reports/summary?type=account&since=${now + 600}&until=${now + 1800}`);
    expect(later.body).toMatchObject({
      csat_responses_count: 0,
      csat_satisfaction_score: null,
      previous: { csat_responses_count: 4, csat_satisfaction_score: 50 },
    });
    const future = (await get(`summary_reports/agent?since=${now + 3600}&until=${now + 7200}`))
      .body;
    expect(row(future, w.x.id)).toMatchObject({
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
  });

  it("in the CSV downloads", async () => {
    const csv = await get("reports/agents.csv");
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split(/\r\n/);
    expect(lines[0]).toMatch(/,csat_responses_count,csat_satisfaction_score$/);
    expect(lines.find((l) => l.startsWith(`${w.x.id},`))).toMatch(/,3,66\.67$/);
  });

  it("another account's answers never count", async () => {
    const other = await world();
    const agents = (
      await api(`/api/v2/accounts/${other.account.id}/summary_reports/agent`, {
        token: other.admin.token,
      })
    ).body;
    expect(
      agents.every((r: { csat_responses_count: number }) => r.csat_responses_count === 0),
    ).toBe(true);
  });
});

describe("CSAT reads are bounded by indexes (query plans)", () => {
  const plan = async (q: Parameters<typeof queryPlan>[0]) => (await queryPlan(q)).join("\n");
  const dbc = createDb(env.DB);

  it("the surveys-sent count (metrics) reads only the survey messages, with or without a range", async () => {
    for (const f of [{}, { since: 1_700_000_000, until: 1_800_000_000 }, { inboxId: 3 }]) {
      const p = await plan(surveysSent(dbc, 1, f));
      expect(p, JSON.stringify(f)).toMatch(
        /SEARCH messages USING (COVERING )?INDEX messages_account_csat_created/,
      );
      expect(p).not.toMatch(/SCAN messages/);
    }
  });

  it.each(["account", "user", "team", "inbox", "label"] as const)(
    "the report's answers per %s read the responses by account and time",
    async (dimension) => {
      for (const span of [null, { from: 1_700_000_000, to: 1_800_000_000 }]) {
        const p = await plan(
          csatTotals(dbc, 1, dimension, span, dimension === "user" ? 2 : undefined),
        );
        expect(p).toMatch(
          /SEARCH csat_survey_responses USING INDEX csat_survey_responses_account_created/,
        );
        expect(p).not.toMatch(/SCAN csat_survey_responses/);
      }
    },
  );
});
