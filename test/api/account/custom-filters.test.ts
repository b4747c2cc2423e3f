import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createAgent, createWorld } from "../../support/factories";
import { api, expectError } from "../../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}/custom_filters`;
const openQuery = {
  payload: [
    {
      attribute_key: "status",
      filter_operator: "equal_to",
      values: ["open"],
      query_operator: null,
    },
  ],
};

async function save(accountId: number, token: string, body: unknown) {
  const res = await api(base(accountId), { method: "POST", token, body });
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string; filter_type: string; query: unknown };
}

describe("custom filters", () => {
  it("saves, lists by type, shows, updates and deletes the caller's own filters", async () => {
    const { account, agent } = await createWorld();
    const saved = await save(account.id, agent.token, {
      custom_filter: { name: "Open ones", type: "conversation", query: openQuery },
    });
    expect(saved).toEqual({
      id: expect.any(Number),
      name: "Open ones",
      filter_type: "conversation",
      type: "conversation",
      query: openQuery,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const contactQuery = {
      payload: [
        {
          attribute_key: "email",
          filter_operator: "contains",
          values: ["@acme"],
          query_operator: null,
        },
      ],
    };
    const contactFilter = await save(account.id, agent.token, {
      name: "Acme",
      filter_type: "contact",
      query: contactQuery,
    });
    await save(account.id, agent.token, { name: "Weekly", filter_type: "report", query: { x: 1 } });

    const conversations = await api(base(account.id), { token: agent.token });
    expect(conversations.body.map((f: { id: number }) => f.id)).toEqual([saved.id]);
    const contacts = await api(`${base(account.id)}?filter_type=contact`, { token: agent.token });
    expect(contacts.body.map((f: { id: number }) => f.id)).toEqual([contactFilter.id]);

    const patched = await api(`${base(account.id)}/${saved.id}`, {
      method: "PATCH",
      token: agent.token,
      body: { name: "Renamed" },
    });
    expect(patched.body).toMatchObject({ name: "Renamed", query: openQuery });
    expect((await api(`${base(account.id)}/${saved.id}`, { token: agent.token })).body.name).toBe(
      "Renamed",
    );
    expect(
      (await api(`${base(account.id)}/${saved.id}`, { method: "DELETE", token: agent.token }))
        .status,
    ).toBe(200);
    expectError(await api(`${base(account.id)}/${saved.id}`, { token: agent.token }), 404);
  });

  it("a saved conversation filter lists with POST …/conversations/filter", async () => {
    const { account, admin } = await createWorld();
    const saved = await save(account.id, admin.token, { name: "Open", query: openQuery });
    const shown = await api(`${base(account.id)}/${saved.id}`, { token: admin.token });
    const res = await api(`/api/v1/accounts/${account.id}/conversations/filter`, {
      method: "POST",
      token: admin.token,
      body: shown.body.query,
    });
    expect(res.status).toBe(200);
  });

  it("filters are per user: another member of the account does not see or change them", async () => {
    const { account, agent } = await createWorld();
    const other = await createAgent(account.id);
    const saved = await save(account.id, agent.token, { name: "Mine", query: openQuery });
    expect((await api(base(account.id), { token: other.token })).body).toEqual([]);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      expectError(
        await api(`${base(account.id)}/${saved.id}`, {
          method,
          token: other.token,
          body: method === "PATCH" ? { name: "x" } : undefined,
        }),
        404,
      );
    }
    expect((await api(`${base(account.id)}/${saved.id}`, { token: agent.token })).body.name).toBe(
      "Mine",
    );
  });

  it("a query the filter DSL rejects, a bad type or a missing name is a 422 that saves nothing", async () => {
    const { account, agent } = await createWorld();
    const bad = (condition: Record<string, unknown>) => ({
      name: "x",
      query: { payload: [{ query_operator: null, ...condition }] },
    });
    for (const body of [
      bad({ attribute_key: "nope", filter_operator: "equal_to", values: ["a"] }),
      bad({ attribute_key: "status", filter_operator: "days_before", values: ["a"] }),
      { name: "x", query: { payload: "status" } },
      { name: "x", query: {} },
      { name: "x", filter_type: "team", query: openQuery },
      { query: openQuery },
      { name: "x".repeat(256), query: openQuery },
      // A contact key is not a conversation key.
      bad({ attribute_key: "email", filter_operator: "contains", values: ["a"] }),
    ]) {
      const res = await api(base(account.id), { method: "POST", token: agent.token, body });
      expectError(res, 422);
    }
    const saved = await save(account.id, agent.token, { name: "ok", query: openQuery });
    expectError(
      await api(`${base(account.id)}/${saved.id}`, {
        method: "PATCH",
        token: agent.token,
        body: { filter_type: "contact" }, // status is no contact key
      }),
      422,
    );
    const list = await api(base(account.id), { token: agent.token });
    expect(list.body).toMatchObject([{ id: saved.id, filter_type: "conversation" }]);
  });

  it("allows at most 50 filters per user and account", async () => {
    const { account, agent } = await createWorld();
    for (let i = 0; i < 50; i++) {
      await save(account.id, agent.token, { name: `f${i}`, query: openQuery });
    }
    expectError(
      await api(base(account.id), {
        method: "POST",
        token: agent.token,
        body: { name: "one too many", query: openQuery },
      }),
      422,
    );
  });
});

const filterPath = async (w: Awaited<ReturnType<typeof createWorld>>) =>
  `${base(w.account.id)}/${(await save(w.account.id, w.admin.token, { name: "m", query: openQuery })).id}`;

describeAuthMatrix("GET custom_filters", { method: "GET", path: (w) => base(w.account.id) });
describeAuthMatrix("POST custom_filters", {
  method: "POST",
  path: (w) => base(w.account.id),
  body: { name: "x", query: openQuery },
});
describeAuthMatrix("GET custom_filters/{id}", { method: "GET", path: filterPath });
describeAuthMatrix("PATCH custom_filters/{id}", {
  method: "PATCH",
  path: filterPath,
  body: { name: "y" },
});
describeAuthMatrix("DELETE custom_filters/{id}", { method: "DELETE", path: filterPath });
