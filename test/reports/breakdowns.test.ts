import { beforeAll, describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../support/auth-matrix";
import {
  addInboxMember,
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
  createTeam,
} from "../support/factories";
import { createContact } from "../support/factories-conversations";
import { createLabel } from "../support/factories-teams";
import { api, expectError } from "../support/http";
import { asAutomation, asUser, at, clock, label, open, say, setStatus } from "./world";

const H = 3600;
const T0 = at("2025-03-03T10:00:00Z");
const DAY = 86_400;

/**
 * One account: first responses after 30 min (API inbox), 5 h and 30 h (web widget inbox);
 * outgoing messages from two agents, an automation rule and a private note; labels added in
 * both inboxes; one conversation open, one resolved, one snoozed. The neighbour account does
 * the same in its own inboxes and must never be counted.
 */
async function scenario() {
  const account = await createAccount();
  const A = account.id;
  const admin = await createAdmin(A);
  const x = await createAgent(A);
  const y = await createAgent(A);
  const team = await createTeam(A);
  const bug = await createLabel(A, { title: "bug" });
  const vip = await createLabel(A, { title: "vip" });
  const apiInbox = await createInbox(A, { name: "B api" });
  const web = await createInbox(A, { name: "A web", channelType: "Channel::WebWidget" });
  for (const inbox of [apiInbox, web]) {
    for (const u of [x, y]) {
      await addInboxMember(inbox.id, u.id);
    }
  }
  const contact = await createContact(A);
  const [asAdmin, asX, asY] = [
    await asUser(admin.id, "administrator"),
    await asUser(x.id),
    await asUser(y.id),
  ];
  clock.now = T0;
  const c1 = await open(A, asAdmin, {
    inbox_id: apiInbox.id,
    contact_id: contact.id,
    assignee_id: x.id,
    team_id: team.id,
  });
  clock.now = T0 + 60;
  await label(A, asAdmin, c1.id, ["bug"]);
  clock.now = T0 + 100;
  await say(A, asAutomation(3), c1.id, "auto", { attrs: { automation_rule_id: 3 } });
  clock.now = T0 + 1800; // first response after 30 min
  await say(A, asX, c1.id, "hello");
  await say(A, asX, c1.id, "a note", { private: true });

  clock.now = T0 + 600;
  const c2 = await open(A, asAdmin, { inbox_id: web.id, contact_id: contact.id });
  clock.now = T0 + 700;
  await label(A, asAdmin, c2.id, ["bug", "vip"]);
  clock.now = T0 + 600 + 5 * H; // after 5 h
  await say(A, asX, c2.id, "sorry for the wait");
  await setStatus(A, asX, c2.id, "resolved");

  clock.now = T0 + 1000;
  const c3 = await open(A, asAdmin, { inbox_id: web.id, contact_id: contact.id });
  clock.now = T0 + 1000 + 30 * H; // after 30 h
  await say(A, asY, c3.id, "here now");
  await setStatus(A, asY, c3.id, "snoozed");
  return { account, admin, x, y, team, bug, vip, apiInbox, web };
}

async function neighbour() {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  await createLabel(account.id, { title: "bug" });
  const inbox = await createInbox(account.id, { channelType: "Channel::WebWidget" });
  const contact = await createContact(account.id);
  const asAdmin = await asUser(admin.id, "administrator");
  clock.now = T0 + 10;
  const c = await open(account.id, asAdmin, { inbox_id: inbox.id, contact_id: contact.id });
  await label(account.id, asAdmin, c.id, ["bug"]);
  clock.now = T0 + 20;
  await say(account.id, asAdmin, c.id, "hi");
}

let w: Awaited<ReturnType<typeof scenario>>;
const get = (rest: string, token = w.admin.token) =>
  api(`/api/v2/accounts/${w.account.id}/${rest}`, { token });
const range = (from: number, to: number) => `since=${from}&until=${to}`;

beforeAll(async () => {
  await neighbour();
  w = await scenario();
});

describe("summary_reports/channel", () => {
  it("counts conversations created in the range by channel type and current status", async () => {
    const r = await get(`summary_reports/channel?${range(T0 - H, T0 + 2 * DAY)}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      "Channel::Api": { open: 1, resolved: 0, pending: 0, snoozed: 0, total: 1 },
      "Channel::WebWidget": { open: 0, resolved: 1, pending: 0, snoozed: 1, total: 2 },
    });
    // [since, until): c2 (created at T0 + 600) is out when the range ends there.
    const early = await get(`summary_reports/channel?${range(T0, T0 + 600)}`);
    expect(early.body).toEqual({
      "Channel::Api": { open: 1, resolved: 0, pending: 0, snoozed: 0, total: 1 },
    });
  });

  it("requires both bounds and at most six months (183 days)", async () => {
    expect((await get(`summary_reports/channel?${range(T0, T0 + 183 * DAY)}`)).status).toBe(200);
    expectError(await get(`summary_reports/channel?${range(T0, T0 + 183 * DAY + 1)}`), 400);
    expectError(await get(`summary_reports/channel?since=${T0}`), 422);
    expectError(await get(`summary_reports/channel?${range(T0 + 10, T0)}`), 422);
  });
});

describe("reports/first_response_time_distribution", () => {
  it("buckets first responses per channel type, from rollups and raw edges alike", async () => {
    const all = await get("reports/first_response_time_distribution");
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      "Channel::Api": { "0-1h": 1, "1-4h": 0, "4-8h": 0, "8-24h": 0, "24h+": 0 },
      "Channel::WebWidget": { "0-1h": 0, "1-4h": 0, "4-8h": 1, "8-24h": 0, "24h+": 1 },
    });
    // A range inside one hour is read from raw events only; one across days from rollups less
    // edges. Both must agree with the trigger's buckets.
    const raw = await get(
      `reports/first_response_time_distribution?${range(T0 + 1799, T0 + 1801)}`,
    );
    expect(raw.body).toEqual({
      "Channel::Api": { "0-1h": 1, "1-4h": 0, "4-8h": 0, "8-24h": 0, "24h+": 0 },
    });
    const mixed = await get(
      `reports/first_response_time_distribution?${range(T0 + 1801, T0 + 40 * DAY + 77)}`,
    );
    expect(mixed.body).toEqual({
      "Channel::WebWidget": { "0-1h": 0, "1-4h": 0, "4-8h": 1, "8-24h": 0, "24h+": 1 },
    });
  });
});

describe("reports/outgoing_messages_count", () => {
  it("counts public outgoing messages per agent (agents' own only), team, inbox and label", async () => {
    const by = async (g: string) =>
      (await get(`reports/outgoing_messages_count?group_by=${g}`)).body;
    expect(await by("agent")).toEqual([
      { id: w.x.id, name: w.x.name, outgoing_messages_count: 2 },
      { id: w.y.id, name: w.y.name, outgoing_messages_count: 1 },
    ]);
    expect(await by("team")).toEqual([
      { id: w.team.id, name: w.team.name, outgoing_messages_count: 2 },
    ]);
    expect(await by("inbox")).toEqual([
      { id: w.apiInbox.id, name: "B api", outgoing_messages_count: 2 },
      { id: w.web.id, name: "A web", outgoing_messages_count: 2 },
    ]);
    expect(await by("label")).toEqual([
      { id: w.bug.id, name: "bug", outgoing_messages_count: 3 },
      { id: w.vip.id, name: "vip", outgoing_messages_count: 1 },
    ]);
    const later = await get(
      `reports/outgoing_messages_count?group_by=agent&${range(T0 + 1801, T0 + 2 * DAY)}`,
    );
    expect(
      later.body.map((r: { outgoing_messages_count: number }) => r.outgoing_messages_count),
    ).toEqual([1, 1]);
  });

  it("refuses a missing or unknown group_by", async () => {
    expectError(await get("reports/outgoing_messages_count"), 422);
    expectError(await get("reports/outgoing_messages_count?group_by=contact"), 422);
  });
});

describe("reports/inbox_label_matrix", () => {
  it("counts labelled conversations per inbox (by name) and label (by title)", async () => {
    const r = await get("reports/inbox_label_matrix");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      inboxes: [
        { id: w.web.id, name: "A web" },
        { id: w.apiInbox.id, name: "B api" },
      ],
      labels: [
        { id: w.bug.id, title: "bug" },
        { id: w.vip.id, title: "vip" },
      ],
      matrix: [
        [1, 1],
        [1, 0],
      ],
    });
    const range1 = await get(`reports/inbox_label_matrix?${range(T0 + 61, T0 + 2 * DAY)}`);
    expect(range1.body.matrix).toEqual([
      [1, 1],
      [0, 0],
    ]);
  });

  it("filters inboxes and labels, in Rails' and comma spellings", async () => {
    const r = await get(
      `reports/inbox_label_matrix?inbox_ids[]=${w.apiInbox.id}&label_ids=${w.vip.id},${w.bug.id}`,
    );
    expect(r.body.inboxes).toEqual([{ id: w.apiInbox.id, name: "B api" }]);
    expect(r.body.labels.map((l: { title: string }) => l.title)).toEqual(["bug", "vip"]);
    expect(r.body.matrix).toEqual([[1, 0]]);
    expectError(await get("reports/inbox_label_matrix?inbox_ids=abc"), 422);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    expectError(await get(`reports/inbox_label_matrix?label_ids=${many}`), 422);
  });
});

for (const rest of [
  "summary_reports/channel?since=0&until=86400",
  "reports/first_response_time_distribution",
  "reports/inbox_label_matrix",
  "reports/outgoing_messages_count?group_by=team",
]) {
  describeAuthMatrix(`GET ${rest}`, {
    method: "GET",
    path: (world) => `/api/v2/accounts/${world.account.id}/${rest}`,
    adminOnly: true,
  });
}

describe("access", () => {
  it("is for administrators: an agent gets 403", async () => {
    for (const path of [
      `summary_reports/channel?${range(T0, T0 + DAY)}`,
      "reports/first_response_time_distribution",
      "reports/inbox_label_matrix",
      "reports/outgoing_messages_count?group_by=inbox",
    ]) {
      expectError(await get(path, w.x.token), 403);
    }
  });
});
