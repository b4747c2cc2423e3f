import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createInbox, createTeam, createWorld } from "../../support/factories";
import {
  type ConversationRow,
  createConversation,
  insertMessage,
  MT,
} from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";

const list = (accountId: number, query = "") =>
  `/api/v1/accounts/${accountId}/conversations${query ? `?${query}` : ""}`;
const meta = (accountId: number, query = "") =>
  `/api/v1/accounts/${accountId}/conversations/meta${query ? `?${query}` : ""}`;

/**
 * The hand-made data set: inbox A (the agent is a member) and inbox B (not), two teams.
 * c1..c7 by increasing last activity, so the default order is c7 first.
 */
async function dataSet() {
  const w = await createWorld();
  const a = await createInbox(w.account.id);
  const b = await createInbox(w.account.id);
  await addInboxMember(a.id, w.agent.id);
  const t1 = await createTeam(w.account.id);
  const t2 = await createTeam(w.account.id);
  const make = (
    inboxId: number,
    at: number,
    values: Partial<ConversationRow> & { labels?: string[] },
  ) =>
    createConversation(w.account.id, inboxId, {
      lastActivityAt: at,
      createdAt: 1_000 - at,
      ...values,
    });
  const c1 = await make(a.id, 100, { assigneeId: w.agent.id, teamId: t1.id, labels: ["billing"] });
  const c2 = await make(a.id, 200, { labels: ["vip"] });
  const c3 = await make(a.id, 300, {
    status: "resolved",
    assigneeId: w.admin.id,
    teamId: t2.id,
    labels: ["billing", "vip"],
  });
  const c4 = await make(a.id, 400, { status: "pending" });
  const c5 = await make(a.id, 500, { status: "snoozed", assigneeId: w.agent.id });
  const c6 = await make(b.id, 600, { assigneeId: w.admin.id, teamId: t1.id, labels: ["billing"] });
  const c7 = await make(b.id, 700, {});
  return { ...w, a, b, t1, t2, c: { c1, c2, c3, c4, c5, c6, c7 } };
}

type DataSet = Awaited<ReturnType<typeof dataSet>>;
const counts = (mine: number, unassigned: number, assigned: number, all: number) => ({
  mine_count: mine,
  unassigned_count: unassigned,
  assigned_count: assigned,
  all_count: all,
});
const ids = (body: { data: { payload: { id: number }[] } }) => body.data.payload.map((c) => c.id);

async function expectList(
  d: DataSet,
  token: string,
  query: string,
  expected: {
    counts: ReturnType<typeof counts>;
    ids: ConversationRow[];
  },
) {
  const res = await api(list(d.account.id, query), { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.meta, query).toEqual(expected.counts);
  expect(ids(res.body), query).toEqual(expected.ids.map((c) => c.displayId));
  const m = await api(meta(d.account.id, query), { token });
  expect(m.body, query).toEqual({ data: { meta: expected.counts } });
}

describe("GET /conversations (E4)", () => {
  describeAuthMatrix("list conversations", { method: "GET", path: (w) => list(w.account.id) });
  describeAuthMatrix("conversation meta", { method: "GET", path: (w) => meta(w.account.id) });

  it("counts and lists an administrator's conversations under every filter", async () => {
    const d = await dataSet();
    const { c1, c2, c3, c4, c5, c6, c7 } = d.c;
    const tok = d.admin.token;
    await expectList(d, tok, "", { counts: counts(1, 2, 2, 4), ids: [c7, c6, c2, c1] });
    await expectList(d, tok, "status=open", { counts: counts(1, 2, 2, 4), ids: [c7, c6, c2, c1] });
    await expectList(d, tok, "status=all", {
      counts: counts(2, 3, 4, 7),
      ids: [c7, c6, c5, c4, c3, c2, c1],
    });
    await expectList(d, tok, "status=resolved", { counts: counts(1, 0, 1, 1), ids: [c3] });
    await expectList(d, tok, "status=pending", { counts: counts(0, 1, 0, 1), ids: [c4] });
    await expectList(d, tok, "status=snoozed", { counts: counts(0, 0, 1, 1), ids: [c5] });
    await expectList(d, tok, `inbox_id=${d.b.id}`, { counts: counts(1, 1, 1, 2), ids: [c7, c6] });
    await expectList(d, tok, `team_id=${d.t1.id}`, { counts: counts(1, 0, 2, 2), ids: [c6, c1] });
    await expectList(d, tok, `team_id=${d.t2.id}&status=all`, {
      counts: counts(1, 0, 1, 1),
      ids: [c3],
    });
    await expectList(d, tok, "assignee_type=me", { counts: counts(1, 2, 2, 4), ids: [c6] });
    await expectList(d, tok, "assignee_type=unassigned", {
      counts: counts(1, 2, 2, 4),
      ids: [c7, c2],
    });
    await expectList(d, tok, "assignee_type=assigned", {
      counts: counts(1, 2, 2, 4),
      ids: [c6, c1],
    });
    await expectList(d, tok, `assignee_type=all&status=all&inbox_id=${d.a.id}`, {
      counts: counts(1, 2, 3, 5),
      ids: [c5, c4, c3, c2, c1],
    });
  });

  it("filters by labels in both query forms, matching any of them", async () => {
    const d = await dataSet();
    const { c1, c2, c3, c6 } = d.c;
    const tok = d.admin.token;
    await expectList(d, tok, "labels=billing", { counts: counts(1, 0, 2, 2), ids: [c6, c1] });
    await expectList(d, tok, "labels=vip&status=all", {
      counts: counts(1, 1, 1, 2),
      ids: [c3, c2],
    });
    const any = { counts: counts(2, 1, 3, 4), ids: [c6, c3, c2, c1] };
    await expectList(d, tok, "status=all&labels=billing&labels=vip", any);
    await expectList(d, tok, "status=all&labels[]=billing&labels[]=vip", any);
    await expectList(d, tok, "status=all&labels%5B%5D=billing&labels%5B%5D=VIP", any);
    await expectList(d, tok, "labels=nothing-has-this", { counts: counts(0, 0, 0, 0), ids: [] });
  });

  it("shows an agent only the conversations of their inboxes, in payload and counts", async () => {
    const d = await dataSet();
    const { c1, c2, c3, c4, c5 } = d.c;
    const tok = d.agent.token;
    await expectList(d, tok, "", { counts: counts(1, 1, 1, 2), ids: [c2, c1] });
    await expectList(d, tok, "status=all", {
      counts: counts(2, 2, 3, 5),
      ids: [c5, c4, c3, c2, c1],
    });
    await expectList(d, tok, `inbox_id=${d.b.id}&status=all`, {
      counts: counts(0, 0, 0, 0),
      ids: [],
    });
    await expectList(d, tok, "assignee_type=me&status=all", {
      counts: counts(2, 2, 3, 5),
      ids: [c5, c1],
    });
  });

  it("an agent in no inbox sees nothing at all", async () => {
    const w = await createWorld();
    await createConversation(w.account.id, w.inbox.id);
    const agent = await api(list(w.account.id, "status=all"), { token: w.agent.token });
    expect(agent.body).toEqual({ data: { meta: counts(0, 0, 0, 0), payload: [] } });
    const admin = await api(list(w.account.id, "status=all"), { token: w.admin.token });
    expect(admin.body.data.meta.all_count).toBe(1);
  });

  it("pages by 25 without overlap, in last activity order", async () => {
    const w = await createWorld();
    const rows: ConversationRow[] = [];
    for (let i = 0; i < 27; i++) {
      rows.push(await createConversation(w.account.id, w.inbox.id, { lastActivityAt: 1000 + i }));
    }
    const p1 = await api(list(w.account.id), { token: w.admin.token });
    const p2 = await api(list(w.account.id, "page=2"), { token: w.admin.token });
    const p3 = await api(list(w.account.id, "page=3"), { token: w.admin.token });
    expect(ids(p1.body)).toEqual(
      rows
        .slice(2)
        .reverse()
        .map((r) => r.displayId),
    );
    expect(ids(p2.body)).toEqual([rows[1], rows[0]].map((r) => r?.displayId));
    expect(ids(p3.body)).toEqual([]);
    expect(p3.body.data.meta.all_count).toBe(27);
  });

  it("sorts by Chatwoot's sort_by keys", async () => {
    const w = await createWorld();
    const make = (values: Partial<ConversationRow>) =>
      createConversation(w.account.id, w.inbox.id, values);
    const x = await make({ lastActivityAt: 10, createdAt: 30, priority: "low", waitingSince: 5 });
    const y = await make({ lastActivityAt: 20, createdAt: 10, priority: null, waitingSince: null });
    const z = await make({
      lastActivityAt: 30,
      createdAt: 20,
      priority: "urgent",
      waitingSince: 9,
    });
    const order = async (sort: string) =>
      ids((await api(list(w.account.id, `sort_by=${sort}`), { token: w.admin.token })).body);
    const dids = (...rows: ConversationRow[]) => rows.map((r) => r.displayId);
    expect(await order("last_activity_at_desc")).toEqual(dids(z, y, x));
    expect(await order("last_activity_at_asc")).toEqual(dids(x, y, z));
    expect(await order("created_at_asc")).toEqual(dids(y, z, x));
    expect(await order("created_at_desc")).toEqual(dids(x, z, y));
    expect(await order("priority_desc")).toEqual(dids(z, x, y));
    expect(await order("priority_asc")).toEqual(dids(x, z, y));
    expect(await order("waiting_since_asc")).toEqual(dids(x, z, y));
    expect(await order("waiting_since_desc")).toEqual(dids(z, x, y));
    expect(await order("latest")).toEqual(dids(z, y, x));
  });

  it("answers 422 for bad filter values", async () => {
    const w = await createWorld();
    for (const [query, path] of [
      ["status=closed", "status"],
      ["assignee_type=someone", "assignee_type"],
      ["sort_by=name", "sort_by"],
      ["inbox_id=abc", "inbox_id"],
      ["team_id=-1", "team_id"],
      ["page=100001", "page"],
    ]) {
      const err = expectError(await api(list(w.account.id, query), { token: w.admin.token }), 422);
      expect(err.details.map((d) => d.path)).toContain(path);
    }
  });

  it("treats empty query values as absent", async () => {
    const d = await dataSet();
    const res = await api(list(d.account.id, "inbox_id=&team_id=&status=&q="), {
      token: d.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.meta.all_count).toBe(4);
  });

  it("refuses bots", async () => {
    const w = await createWorld();
    expectError(await api(list(w.account.id), { token: w.bot.token }), 401);
  });
});

describe("GET /conversations?q= (search)", () => {
  /** Messages over the data set: only public incoming/outgoing messages count. */
  async function searchSet() {
    const d = await dataSet();
    const { c1, c2, c3, c4, c6, c7 } = d.c;
    await insertMessage(c1, { content: "Where is my invoice?", createdAt: 1_262_304_000 });
    await insertMessage(c3, { content: "The invoice was sent", messageType: MT.outgoing });
    await insertMessage(c6, { content: "invoice please, café au lait" });
    await insertMessage(c2, { content: "invoice secret", messageType: MT.outgoing, private: true });
    await insertMessage(c7, { content: "invoice activity", messageType: MT.activity });
    await insertMessage(c4, { content: "a question about invoicing" });
    return d;
  }

  it("finds old messages by word, skipping the status filter", async () => {
    const d = await searchSet();
    const { c1, c3, c6 } = d.c;
    await expectList(d, d.admin.token, "q=invoice", {
      counts: counts(2, 0, 3, 3),
      ids: [c6, c3, c1],
    });
    await expectList(d, d.admin.token, "q=INVOICE&status=open", {
      counts: counts(2, 0, 3, 3),
      ids: [c6, c3, c1],
    });
  });

  it("matches the last word as a prefix and needs every word", async () => {
    const d = await searchSet();
    const { c1, c3, c4, c6 } = d.c;
    await expectList(d, d.admin.token, "q=invoic", {
      counts: counts(2, 1, 3, 4),
      ids: [c6, c4, c3, c1],
    });
    await expectList(d, d.admin.token, "q=where%20invoice", {
      counts: counts(0, 0, 1, 1),
      ids: [c1],
    });
    await expectList(d, d.admin.token, "q=cafe", { counts: counts(1, 0, 1, 1), ids: [d.c.c6] });
  });

  it("keeps the agent's search to their inboxes", async () => {
    const d = await searchSet();
    const { c1, c3 } = d.c;
    await expectList(d, d.agent.token, "q=invoice", { counts: counts(1, 0, 2, 2), ids: [c3, c1] });
  });

  it("combines q with inbox, team, labels and assignee_type", async () => {
    const d = await searchSet();
    const { c1, c6 } = d.c;
    await expectList(d, d.admin.token, `q=invoice&inbox_id=${d.b.id}`, {
      counts: counts(1, 0, 1, 1),
      ids: [c6],
    });
    await expectList(d, d.admin.token, `q=invoice&team_id=${d.t1.id}`, {
      counts: counts(1, 0, 2, 2),
      ids: [c6, c1],
    });
    await expectList(d, d.admin.token, "q=invoice&labels=vip", {
      counts: counts(1, 0, 1, 1),
      ids: [d.c.c3],
    });
    await expectList(d, d.admin.token, "q=invoice&assignee_type=me", {
      counts: counts(2, 0, 3, 3),
      ids: [c6, d.c.c3],
    });
  });

  it("treats FTS syntax in q as plain words and never fails", async () => {
    const d = await searchSet();
    for (const q of [
      'invoice" OR "x',
      "NEAR(invoice",
      "invoice*",
      "-invoice",
      "a:b",
      "'\"",
      "^invoice",
    ]) {
      const res = await api(list(d.account.id, `q=${encodeURIComponent(q)}`), {
        token: d.admin.token,
      });
      expect(res.status, q).toBe(200);
    }
    const star = await api(list(d.account.id, `q=${encodeURIComponent("invoice*")}`), {
      token: d.admin.token,
    });
    expect(star.body.data.meta.all_count).toBe(3);
  });

  it("finds nothing when q has no words", async () => {
    const d = await searchSet();
    await expectList(d, d.admin.token, `q=${encodeURIComponent("!!! ***")}`, {
      counts: counts(0, 0, 0, 0),
      ids: [],
    });
  });

  it("returns the last message and unread counts in list records", async () => {
    const d = await searchSet();
    const res = await api(list(d.account.id, `q=invoice&inbox_id=${d.b.id}`), {
      token: d.admin.token,
    });
    const [record] = res.body.data.payload;
    expect(record.messages[0].content).toBe("invoice please, café au lait");
    expect(record.unread_count).toBe(1);
  });
});
