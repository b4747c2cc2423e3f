import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createInbox, createTeam, createWorld } from "../../support/factories";
import {
  type ConversationRow,
  createContact,
  createConversation,
  defineConversationAttribute,
} from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";

const filterUrl = (accountId: number, query = "") =>
  `/api/v1/accounts/${accountId}/conversations/filter${query ? `?${query}` : ""}`;

type Cond = {
  attribute_key: string;
  filter_operator: string;
  values: unknown[];
  query_operator?: string | null;
};
const cond = (
  attribute_key: string,
  filter_operator: string,
  values: unknown[],
  query_operator: string | null = null,
): Cond => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
});

/** Inbox A (agent member) and B; c1..c5 by increasing last activity. */
async function filterSet() {
  const w = await createWorld();
  const a = await createInbox(w.account.id);
  const b = await createInbox(w.account.id);
  await addInboxMember(a.id, w.agent.id);
  const team = await createTeam(w.account.id);
  await defineConversationAttribute(w.account.id, "score", "number");
  const make = (
    inboxId: number,
    at: number,
    values: Partial<ConversationRow> & { labels?: string[] },
  ) => createConversation(w.account.id, inboxId, { lastActivityAt: at, ...values });
  const c1 = await make(a.id, 100, {
    assigneeId: w.agent.id,
    priority: "high",
    customAttributes: { score: 10 },
  });
  const c2 = await make(a.id, 200, {
    status: "pending",
    labels: ["vip"],
    customAttributes: { score: 50 },
  });
  const c3 = await make(a.id, 300, { status: "resolved", teamId: team.id, priority: "low" });
  const c4 = await make(b.id, 400, {
    assigneeId: w.admin.id,
    labels: ["vip"],
    customAttributes: { score: 90 },
  });
  const c5 = await make(b.id, 500, { status: "snoozed" });
  return { ...w, a, b, team, c: { c1, c2, c3, c4, c5 } };
}

type Set = Awaited<ReturnType<typeof filterSet>>;

async function expectFilter(
  s: Set,
  token: string,
  payload: Cond[],
  expected: ConversationRow[],
  meta?: object,
) {
  const res = await api(filterUrl(s.account.id), { token, body: { payload } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(
    res.body.payload.map((c: { id: number }) => c.id),
    JSON.stringify(payload),
  ).toEqual(expected.map((c) => c.displayId));
  if (meta) {
    expect(res.body.meta).toEqual(meta);
  }
  return res;
}

describe("POST /conversations/filter", () => {
  describeAuthMatrix("filter conversations", {
    method: "POST",
    path: (w) => filterUrl(w.account.id),
    body: { payload: [] },
  });

  it("filters with the DSL and answers {meta, payload} unwrapped", async () => {
    const s = await filterSet();
    const { c1, c2, c3, c4, c5 } = s.c;
    const t = s.admin.token;
    await expectFilter(s, t, [], [c5, c4, c3, c2, c1], {
      mine_count: 1,
      unassigned_count: 3,
      assigned_count: 2,
      all_count: 5,
    });
    await expectFilter(s, t, [cond("status", "equal_to", ["open", "pending"])], [c4, c2, c1]);
    await expectFilter(s, t, [cond("status", "equal_to", ["all"])], [c5, c4, c3, c2, c1]);
    await expectFilter(s, t, [cond("status", "not_equal_to", ["open"])], [c5, c3, c2]);
    await expectFilter(s, t, [cond("assignee_id", "equal_to", [s.agent.id])], [c1]);
    await expectFilter(s, t, [cond("assignee_id", "is_not_present", [])], [c5, c3, c2]);
    await expectFilter(s, t, [cond("inbox_id", "equal_to", [String(s.b.id)])], [c5, c4]);
    await expectFilter(s, t, [cond("team_id", "equal_to", [s.team.id])], [c3]);
    await expectFilter(s, t, [cond("priority", "equal_to", ["high", "low"])], [c3, c1]);
    await expectFilter(s, t, [cond("labels", "equal_to", ["vip"])], [c4, c2]);
    await expectFilter(s, t, [cond("display_id", "equal_to", [c3.displayId])], [c3]);
    await expectFilter(s, t, [cond("score", "is_greater_than", [20])], [c4, c2]);
  });

  it("chains and/or with AND binding tighter", async () => {
    const s = await filterSet();
    const { c1, c2, c4, c5 } = s.c;
    await expectFilter(
      s,
      s.admin.token,
      [
        cond("labels", "equal_to", ["vip"], "and"),
        cond("inbox_id", "equal_to", [s.a.id], "or"),
        cond("status", "equal_to", ["snoozed"]),
      ],
      [c5, c2],
    );
    await expectFilter(
      s,
      s.admin.token,
      [cond("status", "equal_to", ["open"], "or"), cond("labels", "equal_to", ["vip"])],
      [c4, c2, c1],
    );
  });

  it("keeps an agent to their inboxes, counts included", async () => {
    const s = await filterSet();
    const { c1, c2, c3 } = s.c;
    await expectFilter(s, s.agent.token, [], [c3, c2, c1], {
      mine_count: 1,
      unassigned_count: 2,
      assigned_count: 1,
      all_count: 3,
    });
    await expectFilter(s, s.agent.token, [cond("inbox_id", "equal_to", [s.b.id])], [], {
      mine_count: 0,
      unassigned_count: 0,
      assigned_count: 0,
      all_count: 0,
    });
  });

  it("pages by 25 with page in the query string", async () => {
    const w = await createWorld();
    for (let i = 0; i < 27; i++) {
      await createConversation(w.account.id, w.inbox.id, { lastActivityAt: 1000 + i });
    }
    const p2 = await api(filterUrl(w.account.id, "page=2"), {
      token: w.admin.token,
      body: { payload: [] },
    });
    expect(p2.body.payload).toHaveLength(2);
    expect(p2.body.meta.all_count).toBe(27);
  });

  it("answers 422 for unknown keys, operators and query operators", async () => {
    const s = await filterSet();
    for (const payload of [
      [cond("nope", "equal_to", ["x"])],
      [cond("status", "contains", ["open"])],
      [cond("status", "equal_to", ["open"], "xor"), cond("status", "equal_to", ["open"])],
      [cond("status", "equal_to", [])],
      "status",
    ]) {
      const res = await api(filterUrl(s.account.id), { token: s.admin.token, body: { payload } });
      expectError(res, 422, "validation_failed");
    }
  });

  it("refuses bots", async () => {
    const w = await createWorld();
    expectError(
      await api(filterUrl(w.account.id), { token: w.bot.token, body: { payload: [] } }),
      401,
    );
  });
});

describe("GET /contacts/{id}/conversations", () => {
  const url = (accountId: number, contactId: number) =>
    `/api/v1/accounts/${accountId}/contacts/${contactId}/conversations`;

  describeAuthMatrix("contact conversations", {
    method: "GET",
    path: async (w) => url(w.account.id, (await createContact(w.account.id)).id),
  });

  it("lists the contact's conversations the caller can see, latest first", async () => {
    const w = await createWorld();
    const mine = await createInbox(w.account.id);
    await addInboxMember(mine.id, w.agent.id);
    const contact = await createContact(w.account.id);
    const x = await createConversation(w.account.id, mine.id, {
      contactId: contact.id,
      lastActivityAt: 10,
    });
    const y = await createConversation(w.account.id, w.inbox.id, {
      contactId: contact.id,
      lastActivityAt: 20,
    });
    const z = await createConversation(w.account.id, mine.id, {
      contactId: contact.id,
      lastActivityAt: 30,
      status: "resolved",
    });
    await createConversation(w.account.id, mine.id);
    const admin = await api(url(w.account.id, contact.id), { token: w.admin.token });
    expect(admin.status).toBe(200);
    expect(admin.body.payload.map((c: { id: number }) => c.id)).toEqual(
      [z, y, x].map((c) => c.displayId),
    );
    expect(admin.body.payload[0].meta.sender.id).toBe(contact.id);
    const agent = await api(url(w.account.id, contact.id), { token: w.agent.token });
    expect(agent.body.payload.map((c: { id: number }) => c.id)).toEqual(
      [z, x].map((c) => c.displayId),
    );
  });

  it("is 404 for unknown, malformed and other accounts' contacts", async () => {
    const w = await createWorld();
    const other = await createWorld();
    const foreign = await createContact(other.account.id);
    await createConversation(other.account.id, other.inbox.id, { contactId: foreign.id });
    for (const id of [String(foreign.id), "999999999", "abc"]) {
      expectError(
        await api(`/api/v1/accounts/${w.account.id}/contacts/${id}/conversations`, {
          token: w.admin.token,
        }),
        404,
      );
    }
  });
});
