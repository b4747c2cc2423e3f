import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import {
  addInboxMember,
  attachBot,
  createAccount,
  createAdmin,
  createAgent,
  createAgentBot,
  createInbox,
  createTeam,
  db,
} from "../support/factories";
import { createContact } from "../support/factories-conversations";
import { createLabel } from "../support/factories-teams";
import { api, expectError } from "../support/http";
import {
  asAutomation,
  asBot,
  asUser,
  at,
  clock,
  label,
  open,
  reassign,
  say,
  setStatus,
  weekdays,
} from "./world";

const H = 3600;
// Times of the scenario (UTC). New York is EST (UTC-5) until Sunday 2025-03-09, EDT after.
const FRI = at("2025-03-07T21:00:00Z"); // Fri 16:00 EST, one business hour left
const MON = at("2025-03-10T14:00:00Z"); // Mon 10:00 EDT
const TUE = at("2025-03-11T10:00:00Z");

/**
 * One account, scripted: assign/reassign, a team change, a bot handoff, resolve/reopen/resolve,
 * a private note and an automation message (neither a response), replies over a weekend and
 * New York's DST change, in an inbox with working hours (Mon–Fri 09:00–17:00 New York) and in
 * a bot inbox with working hours disabled. Another account does the same things at the same
 * times and is never counted.
 */
async function scenario() {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const x = await createAgent(account.id);
  const y = await createAgent(account.id);
  const t1 = await createTeam(account.id);
  const t2 = await createTeam(account.id);
  const vip = await createLabel(account.id);
  const ny = await createInbox(account.id, {
    timezone: "America/New_York",
    workingHoursEnabled: true,
    workingHours: weekdays(9, 17),
  });
  const botInbox = await createInbox(account.id);
  const bot = await createAgentBot({ accountId: account.id });
  await attachBot(account.id, botInbox.id, bot.id);
  for (const inbox of [ny, botInbox]) {
    for (const u of [x, y]) {
      await addInboxMember(inbox.id, u.id);
    }
  }
  const contact = await createContact(account.id);
  const [asAdmin, asX, asY, asTheBot] = [
    await asUser(admin.id, "administrator"),
    await asUser(x.id),
    await asUser(y.id),
    await asBot(bot.id),
  ];
  const A = account.id;

  // C1 in the New York inbox, created Friday 16:00 EST with X and team T1.
  clock.now = FRI;
  const c1 = await open(A, asAdmin, {
    inbox_id: ny.id,
    contact_id: contact.id,
    assignee_id: x.id,
    team_id: t1.id,
  });
  await label(A, asAdmin, c1.id, [vip.title]); // labelled at creation: counted under the label
  clock.now = FRI + 300;
  await say(A, asX, c1.id, "internal", { private: true }); // a private note: no response
  clock.now = FRI + 400;
  await say(A, asAutomation(7), c1.id, "auto", { attrs: { automation_rule_id: 7 } }); // automation
  clock.now = MON; // first response: 65 h; business 1 h Fri + 1 h Mon (09:00 EDT = 13:00 UTC)
  await say(A, asX, c1.id, "hello");
  clock.now = MON + 600; // the customer waits from 14:10
  await say(A, asAdmin, c1.id, "still there?", { type: "incoming" });
  clock.now = MON + 1200;
  await reassign(A, asAdmin, c1.id, { assignee_id: y.id });
  clock.now = MON + 1800;
  await reassign(A, asAdmin, c1.id, { team_id: t2.id });
  clock.now = MON + H; // Y replies: 3000 s after the wait began
  await say(A, asY, c1.id, "on it");
  clock.now = MON + 2 * H; // resolved: 67 h; business 1 h Fri + 3 h Mon
  await setStatus(A, asY, c1.id, "resolved");
  clock.now = MON + 2 * H + 1800; // the customer writes: reopened after 1800 s, waiting again
  await say(A, asAdmin, c1.id, "one more thing", { type: "incoming" });
  clock.now = MON + 2 * H + 3000; // Y replies after 1200 s
  await say(A, asY, c1.id, "sure");
  clock.now = MON + 3 * H; // resolved again: 68 h; business 1 h Fri + 4 h Mon
  await setStatus(A, asY, c1.id, "resolved");

  // C2 in the bot inbox (pending), handed off, then answered by X.
  clock.now = TUE;
  const c2 = await open(A, asAdmin, { inbox_id: botInbox.id, contact_id: contact.id });
  clock.now = TUE + 60;
  await say(A, asTheBot, c2.id, "bot here"); // a bot's reply: no response
  clock.now = TUE + 300;
  await setStatus(A, asTheBot, c2.id, "open"); // bot handoff after 300 s
  clock.now = TUE + 400;
  await reassign(A, asAdmin, c2.id, { assignee_id: x.id });
  clock.now = TUE + 1000; // first response counted from the handoff: 700 s
  await say(A, asX, c2.id, "human here");
  clock.now = TUE + 2000;
  await setStatus(A, asAdmin, c2.id, "resolved");

  // C3 in the bot inbox, resolved by the bot alone after 400 s.
  clock.now = TUE + 100;
  const c3 = await open(A, asAdmin, { inbox_id: botInbox.id, contact_id: contact.id });
  clock.now = TUE + 500;
  await setStatus(A, asTheBot, c3.id, "resolved");

  return { account, admin, x, y, t1, t2, vip, ny, botInbox, c1, c2, c3 };
}

/** The same story in another account: must never show up in the first one's reports. */
async function neighbour() {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const inbox = await createInbox(account.id);
  const contact = await createContact(account.id);
  const asAdmin = await asUser(admin.id, "administrator");
  clock.now = FRI;
  const c = await open(account.id, asAdmin, {
    inbox_id: inbox.id,
    contact_id: contact.id,
    assignee_id: admin.id,
  });
  clock.now = MON;
  await say(account.id, asAdmin, c.id, "hi");
  await setStatus(account.id, asAdmin, c.id, "resolved");
}

let w: Awaited<ReturnType<typeof scenario>>;
let token: string;
const path = (rest: string) => `/api/v2/accounts/${w.account.id}/${rest}`;
const get = (rest: string) => api(path(rest), { token });

beforeAll(async () => {
  await neighbour();
  w = await scenario();
  token = w.admin.token;
});

const row = (rows: any[], id: number) => rows.find((r) => r.id === id);

describe("reporting events", () => {
  it("records Chatwoot's facts with hand-computed values", async () => {
    const facts = await db()
      .select()
      .from(t.reportingEvents)
      .where(eq(t.reportingEvents.accountId, w.account.id))
      .orderBy(t.reportingEvents.id)
      .all();
    const chatwoot = facts
      .filter(
        (f) => !/^(conversation_(created|assigned|team_assigned|labelled)|message_)/.test(f.name),
      )
      .map((f) => [f.name, f.conversationId, f.userId, f.teamId, f.value, f.valueInBusinessHours]);
    expect(chatwoot).toEqual([
      ["first_response", w.c1.id, w.x.id, w.t1.id, 65 * H, 2 * H],
      ["reply_time", w.c1.id, w.y.id, w.t2.id, 3000, 3000],
      ["conversation_resolved", w.c1.id, w.y.id, w.t2.id, 67 * H, 4 * H],
      ["conversation_opened", w.c1.id, w.y.id, w.t2.id, 1800, 1800],
      ["reply_time", w.c1.id, w.y.id, w.t2.id, 1200, 1200],
      ["conversation_resolved", w.c1.id, w.y.id, w.t2.id, 68 * H, 5 * H],
      ["conversation_bot_handoff", w.c2.id, null, null, 300, 0],
      ["first_response", w.c2.id, w.x.id, null, 700, 0],
      ["conversation_resolved", w.c2.id, w.x.id, null, 2000, 0],
      ["conversation_resolved", w.c3.id, null, null, 400, 0],
      ["conversation_bot_resolved", w.c3.id, null, null, 400, 0],
    ]);
  });

  it("keeps waiting_since: cleared by a human reply, set by the customer", async () => {
    const c1 = await db()
      .select()
      .from(t.conversations)
      .where(eq(t.conversations.id, w.c1.id))
      .get();
    expect(c1?.waitingSince).toBeNull();
    expect(c1?.firstReplyCreatedAt).toBe(MON);
  });
});

describe("GET /api/v2/accounts/{account_id}/summary_reports/agent (E17)", () => {
  it("answers one row per member, zeros included, all time", async () => {
    const res = await get("summary_reports/agent");
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => r.id).sort()).toEqual([w.admin.id, w.x.id, w.y.id].sort());
    // X: assigned C1 (at creation) and C2; resolved C2 (2000 s); first responses 65 h and 700 s.
    expect(row(res.body, w.x.id)).toEqual({
      id: w.x.id,
      conversations_count: 2,
      resolved_conversations_count: 1,
      avg_resolution_time: 2000,
      avg_first_response_time: (65 * H + 700) / 2,
      avg_reply_time: null,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
    // Y: assigned C1 by reassignment; resolved C1 twice (67 h, 68 h); replies 3000 s and 1200 s.
    expect(row(res.body, w.y.id)).toEqual({
      id: w.y.id,
      conversations_count: 1,
      resolved_conversations_count: 2,
      avg_resolution_time: (67 * H + 68 * H) / 2,
      avg_first_response_time: null,
      avg_reply_time: 2100,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
    expect(row(res.body, w.admin.id)).toEqual({
      id: w.admin.id,
      conversations_count: 0,
      resolved_conversations_count: 0,
      avg_resolution_time: null,
      avg_first_response_time: null,
      avg_reply_time: null,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
  });

  it("counts business hours only with business_hours=true (0 where they are disabled)", async () => {
    const res = await get("summary_reports/agent?business_hours=true");
    expect(row(res.body, w.x.id)).toMatchObject({
      conversations_count: 2,
      avg_resolution_time: 0,
      avg_first_response_time: (2 * H + 0) / 2,
    });
    expect(row(res.body, w.y.id)).toMatchObject({
      resolved_conversations_count: 2,
      avg_resolution_time: (4 * H + 5 * H) / 2,
      avg_reply_time: 2100,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
  });

  it("includes since and excludes until ([since, until), partial days read raw)", async () => {
    const res = await get(`summary_reports/agent?since=${MON + 2 * H}&until=${MON + 3 * H}`);
    // Y's first resolve is at since (in), the second at until (out); one reply (1200 s) between.
    expect(row(res.body, w.y.id)).toEqual({
      id: w.y.id,
      conversations_count: 0,
      resolved_conversations_count: 1,
      avg_resolution_time: 67 * H,
      avg_first_response_time: null,
      avg_reply_time: 1200,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
    expect(row(res.body, w.x.id).resolved_conversations_count).toBe(0);
  });

  it("reads most of a day as the day's rollup less its raw edges", async () => {
    // [Mon 01:00, Mon 17:00): the day row of Monday less [00:00, 01:00) and [17:00, 24:00),
    // where Y's second resolve (17:00) lies: it must be taken out again.
    const res = await get(
      `summary_reports/agent?since=${at("2025-03-10T01:00:00Z")}&until=${MON + 3 * H}`,
    );
    expect(row(res.body, w.y.id)).toEqual({
      id: w.y.id,
      conversations_count: 1,
      resolved_conversations_count: 1,
      avg_resolution_time: 67 * H,
      avg_first_response_time: null,
      avg_reply_time: 2100,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
    expect(row(res.body, w.x.id)).toMatchObject({
      avg_first_response_time: 65 * H,
      conversations_count: 0,
    });
  });

  it("answers any range as the raw events would (rollup pieces add up exactly)", async () => {
    // Deterministic pseudo-random ranges around the scenario, from minutes to months long.
    let seed = 12_345;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const lo = at("2025-01-20T00:00:00Z");
    const hi = at("2025-04-20T00:00:00Z");
    for (let i = 0; i < 25; i++) {
      const a = Math.floor(lo + next() * (hi - lo));
      const b = i % 3 === 0 ? a + Math.floor(next() * 6 * H) : Math.floor(a + next() * (hi - a));
      const raw = await db()
        .select()
        .from(t.reportingEvents)
        .where(eq(t.reportingEvents.accountId, w.account.id))
        .all();
      const inRange = raw.filter((e) => e.createdAt >= a && e.createdAt < b && e.userId === w.y.id);
      const of = (name: string) => inRange.filter((e) => e.name === name);
      const avg = (name: string) =>
        of(name).length === 0 ? null : of(name).reduce((x, e) => x + e.value, 0) / of(name).length;
      const res = await get(`summary_reports/agent?since=${a}&until=${b}`);
      expect(row(res.body, w.y.id), `[${a}, ${b})`).toEqual({
        id: w.y.id,
        conversations_count: of("conversation_assigned").length,
        resolved_conversations_count: of("conversation_resolved").length,
        avg_resolution_time: avg("conversation_resolved"),
        avg_first_response_time: avg("first_response"),
        avg_reply_time: avg("reply_time"),
        csat_responses_count: 0,
        csat_satisfaction_score: null,
      });
    }
  });

  it("gives the same answer from month and day rollups as all time", async () => {
    const all = await get("summary_reports/agent");
    const months = await get(
      `summary_reports/agent?since=${at("2025-02-14T12:00:00Z")}&until=${at("2025-04-02T06:00:00Z")}`,
    );
    expect(months.body).toEqual(all.body);
  });

  it("refuses agents (403) and a since after until (422)", async () => {
    expectError(await api(path("summary_reports/agent"), { token: w.x.token }), 403);
    const bad = expectError(await get(`summary_reports/agent?since=${MON}&until=${FRI}`), 422);
    expect(bad.details[0]?.path).toBe("since");
    expectError(await get("summary_reports/agent?since=yesterday&until=1"), 422);
  });
});

describe("GET /api/v2/accounts/{account_id}/summary_reports/team (E18)", () => {
  it("answers one row per team with the team as at each event", async () => {
    const res = await get("summary_reports/team");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: w.t1.id,
        conversations_count: 1,
        resolved_conversations_count: 0,
        avg_resolution_time: null,
        avg_first_response_time: 65 * H,
        avg_reply_time: null,
        csat_responses_count: 0,
        csat_satisfaction_score: null,
      },
      {
        id: w.t2.id,
        conversations_count: 1,
        resolved_conversations_count: 2,
        avg_resolution_time: (67 * H + 68 * H) / 2,
        avg_first_response_time: null,
        avg_reply_time: 2100,
        csat_responses_count: 0,
        csat_satisfaction_score: null,
      },
    ]);
  });
});

describe("inbox and label summaries", () => {
  it("answers per inbox and per label", async () => {
    const inboxes = (await get("summary_reports/inbox")).body;
    expect(row(inboxes, w.ny.id)).toMatchObject({
      conversations_count: 1,
      resolved_conversations_count: 2,
    });
    expect(row(inboxes, w.botInbox.id)).toMatchObject({
      conversations_count: 2,
      resolved_conversations_count: 2,
      avg_resolution_time: (2000 + 400) / 2,
      avg_first_response_time: 700,
    });
    const labels = (await get("summary_reports/label")).body;
    expect(row(labels, w.vip.id)).toMatchObject({
      conversations_count: 1,
      resolved_conversations_count: 2,
      avg_resolution_time: (67 * H + 68 * H) / 2,
      avg_reply_time: 2100,
      csat_responses_count: 0,
      csat_satisfaction_score: null,
    });
  });
});

describe("GET /api/v2/accounts/{account_id}/reports (time series)", () => {
  const week = `since=${at("2025-03-07T00:00:00Z")}&until=${at("2025-03-12T00:00:00Z")}`;
  const days = [7, 8, 9, 10, 11].map((d) => at(`2025-03-${String(d).padStart(2, "0")}T00:00:00Z`));

  it("answers every day bucket, empty ones as 0", async () => {
    const res = await get(`reports?metric=resolutions_count&type=account&${week}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([0, 0, 0, 2, 2].map((value, i) => ({ value, timestamp: days[i] })));
    const created = await get(`reports?metric=conversations_count&${week}`);
    expect(created.body.map((b: any) => b.value)).toEqual([1, 0, 0, 0, 2]);
    const bot = await get(`reports?metric=bot_handoffs_count&${week}`);
    expect(bot.body.map((b: any) => b.value)).toEqual([0, 0, 0, 0, 1]);
    const botResolved = await get(`reports?metric=bot_resolutions_count&${week}`);
    expect(botResolved.body.map((b: any) => b.value)).toEqual([0, 0, 0, 0, 1]);
  });

  it("averages per bucket for an agent, in business hours when asked", async () => {
    const q = `reports?metric=avg_resolution_time&type=agent&id=${w.y.id}&${week}`;
    expect((await get(q)).body.map((b: any) => b.value)).toEqual([0, 0, 0, 67.5 * H, 0]);
    expect((await get(`${q}&business_hours=true`)).body.map((b: any) => b.value)).toEqual([
      0,
      0,
      0,
      4.5 * H,
      0,
    ]);
    const replies = await get(`reports?metric=reply_time&type=team&id=${w.t2.id}&${week}`);
    expect(replies.body.map((b: any) => b.value)).toEqual([0, 0, 0, 2100, 0]);
  });

  it("counts messages: private notes are not outgoing messages to the customer", async () => {
    const incoming = await get(`reports?metric=incoming_messages_count&${week}`);
    expect(incoming.body.map((b: any) => b.value)).toEqual([0, 0, 0, 2, 0]);
    // Friday: the automation message (the note is private); Monday: three replies; Tuesday: the
    // bot's and X's.
    const outgoing = await get(`reports?metric=outgoing_messages_count&${week}`);
    expect(outgoing.body.map((b: any) => b.value)).toEqual([1, 0, 0, 3, 2]);
  });

  it("buckets at local midnight with a timezone offset", async () => {
    const res = await get(`reports?metric=resolutions_count&${week}&timezone_offset=-5`);
    expect(res.body[0]).toEqual({ value: 0, timestamp: at("2025-03-06T05:00:00Z") });
    expect(res.body.map((b: any) => b.value)).toEqual([0, 0, 0, 0, 2, 2]);
    // +5:30 (not whole hours: raw events): local midnight of the 7th is 18:30 UTC on the 6th.
    const india = await get(`reports?metric=resolutions_count&${week}&timezone_offset=5.5`);
    expect(india.body[0]).toEqual({ value: 0, timestamp: at("2025-03-06T18:30:00Z") });
    expect(india.body.map((b: any) => b.value)).toEqual([0, 0, 0, 2, 2, 0]);
  });

  it("refuses a missing metric, a missing id and too many buckets (422)", async () => {
    expectError(await get(`reports?${week}`), 422);
    expectError(await get(`reports?metric=reply_time&type=agent&${week}`), 422);
    const years = `since=${at("2023-01-01T00:00:00Z")}&until=${at("2025-01-01T00:00:00Z")}`;
    expectError(await get(`reports?metric=reply_time&${years}`), 422);
    expect((await get(`reports?metric=reply_time&${years}&group_by=month`)).body).toHaveLength(24);
  });
});

describe("GET /api/v2/accounts/{account_id}/reports/summary", () => {
  it("totals the range and the range before it", async () => {
    // [Sun 9, Wed 12) and the three days before it, [Thu 6, Sun 9), which hold Friday's C1.
    const res = await get(
      `reports/summary?since=${at("2025-03-09T00:00:00Z")}&until=${at("2025-03-12T00:00:00Z")}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      conversations_count: 2,
      resolutions_count: 4,
      avg_resolution_time: (67 * H + 68 * H + 2000 + 400) / 4,
      avg_first_response_time: (65 * H + 700) / 2,
      reply_time: 2100,
      bot_resolutions_count: 1,
      bot_handoffs_count: 1,
      previous: { conversations_count: 1, resolutions_count: 0, outgoing_messages_count: 1 },
    });
  });
});

describe("GET /api/v2/accounts/{account_id}/reports/conversations", () => {
  it("counts live conversations of the account and per agent", async () => {
    const live = await get("reports/conversations");
    expect(live.body).toEqual({ open: 0, unattended: 0, unassigned: 0, pending: 0 });
    const agents = await get("reports/conversations?type=agent");
    expect(row(agents.body, w.x.id).metric).toEqual({
      open: 0,
      unattended: 0,
      unassigned: 0,
      pending: 0,
    });
  });
});

describe("CSV downloads", () => {
  it("streams the agent summary with a header row", async () => {
    const res = await api(path("reports/agents.csv"), { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = String(res.body).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,name,conversations_count,resolved_conversations_count,avg_resolution_time,avg_first_response_time,avg_reply_time,csat_responses_count,csat_satisfaction_score",
    );
    expect(lines).toHaveLength(4);
    const y = lines.find((l) => l.startsWith(`${w.y.id},`));
    expect(y?.split(",").slice(2)).toEqual(["1", "2", String(67.5 * H), "", "2100", "0", ""]);
    const accept = await api(path("summary_reports/team"), {
      token,
      headers: { accept: "text/csv" },
    });
    expect(String(accept.body).split("\r\n")).toHaveLength(4);
  });
});

it("never counts another account's events", async () => {
  const res = await get(
    `reports?metric=resolutions_count&since=${at("2025-03-10T00:00:00Z")}&until=${at("2025-03-11T00:00:00Z")}`,
  );
  expect(res.body).toEqual([{ value: 2, timestamp: at("2025-03-10T00:00:00Z") }]);
  void env;
});
