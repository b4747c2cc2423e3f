import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { createPlatformApp, createWorld, db } from "../../support/factories";
import { createRule } from "../../support/factories-automation";
import { createContact } from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}`;
const LOW_PAGES = ["0", "-3", "abc", ""];

// Chatwoot reads `params[:page].to_i` and Kaminari serves page 1 for anything below 1.
describe("page=0, negative or non-numeric pages mean page 1", () => {
  it("on the contacts list, search and filter", async () => {
    const { account, admin } = await createWorld();
    await createContact(account.id, { name: "Lead One", email: "lead1@example.com" });
    const urls = [
      (p: string) => `${base(account.id)}/contacts?page=${p}`,
      (p: string) => `${base(account.id)}/contacts/search?q=lead&page=${p}`,
    ];
    for (const url of urls) {
      for (const p of LOW_PAGES) {
        const res = await api(url(p), { token: admin.token });
        expect(res.status, `${url(p)}`).toBe(200);
        expect(res.body.meta).toEqual({ count: 1, current_page: 1 });
        expect(res.body.payload).toHaveLength(1);
      }
    }
    const filter = (query: string, body: Record<string, unknown>) =>
      api(`${base(account.id)}/contacts/filter${query}`, {
        token: admin.token,
        body: {
          payload: [{ attribute_key: "name", filter_operator: "contains", values: ["lead"] }],
          ...body,
        },
      });
    for (const [query, body] of [
      ["?page=0", {}],
      ["?page=-3", {}],
      ["", { page: 0 }],
      ["", { page: -3 }],
      ["", { page: "abc" }],
    ] as const) {
      const res = await filter(query, body);
      expect(res.status).toBe(200);
      expect(res.body.meta.current_page).toBe(1);
      expect(res.body.payload).toHaveLength(1);
    }
  });

  it("on the conversations list and filter", async () => {
    const { account, admin } = await createWorld();
    for (const p of LOW_PAGES) {
      const res = await api(`${base(account.id)}/conversations?status=all&page=${p}`, {
        token: admin.token,
      });
      expect(res.status, `page=${p}`).toBe(200);
    }
    const payload = [
      {
        attribute_key: "status",
        filter_operator: "equal_to",
        values: ["open"],
        query_operator: null,
      },
    ];
    for (const [query, body] of [
      ["?page=0", {}],
      ["?page=-3", {}],
      ["?page=abc", {}],
      ["", { page: 0 }],
      ["", { page: -3 }],
    ] as const) {
      const res = await api(`${base(account.id)}/conversations/filter${query}`, {
        token: admin.token,
        body: { payload, ...body },
      });
      expect(res.status, `${query} ${JSON.stringify(body)}`).toBe(200);
    }
  });

  it("on automation rules and webhook deliveries", async () => {
    const { account, admin } = await createWorld();
    await createRule(account.id);
    for (const p of LOW_PAGES) {
      const rules = await api(`${base(account.id)}/automation_rules?page=${p}`, {
        token: admin.token,
      });
      expect(rules.status, `page=${p}`).toBe(200);
      expect(rules.body.meta).toEqual({ count: 1, current_page: 1 });
      expect(rules.body.payload).toHaveLength(1);
    }
    const [hook] = await db()
      .insert(t.webhooks)
      .values({
        accountId: account.id,
        url: "https://hooks.example.com/parley",
        subscriptions: ["message_created"],
        secret: "whsec_test",
      })
      .returning();
    for (const p of LOW_PAGES) {
      const res = await api(`${base(account.id)}/webhooks/${hook?.id}/deliveries?page=${p}`, {
        token: admin.token,
      });
      expect(res.status, `page=${p}`).toBe(200);
      expect(res.body.meta.current_page).toBe(1);
    }
  });

  it("still refuses a page beyond the last one served", async () => {
    const { account, admin } = await createWorld();
    expectError(await api(`${base(account.id)}/contacts?page=100001`, { token: admin.token }), 422);
    expectError(
      await api(`${base(account.id)}/automation_rules?page=100001`, { token: admin.token }),
      422,
    );
  });
});

describe("custom attribute definitions: null items of attribute_values are dropped", () => {
  const defs = (accountId: number) => `${base(accountId)}/custom_attribute_definitions`;

  it("keeps the other options of a list attribute, on create and on update", async () => {
    const { account, admin } = await createWorld();
    const created = await api(defs(account.id), {
      token: admin.token,
      body: {
        attribute_display_name: "Plan",
        attribute_key: "plan",
        attribute_display_type: "list",
        attribute_model: "contact_attribute",
        attribute_values: ["a", null, "b"],
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.attribute_values).toEqual(["a", "b"]);
    const updated = await api(`${defs(account.id)}/${created.body.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { attribute_values: [null, "c", null] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.attribute_values).toEqual(["c"]);
  });

  it("answers 422 only when what is left is invalid for the type", async () => {
    const { account, admin } = await createWorld();
    const create = (body: Record<string, unknown>) =>
      api(defs(account.id), {
        token: admin.token,
        body: { attribute_display_name: "X", attribute_model: "contact_attribute", ...body },
      });
    const onlyNulls = expectError(
      await create({
        attribute_key: "l1",
        attribute_display_type: "list",
        attribute_values: [null],
      }),
      422,
    );
    expect(onlyNulls.details.map((d) => d.path)).toContain("attribute_values");
    const text = await create({
      attribute_key: "t1",
      attribute_display_type: "text",
      attribute_values: [null],
    });
    expect(text.status).toBe(200);
    expect(text.body.attribute_values).toEqual([]);
    const wrongItem = expectError(
      await create({
        attribute_key: "l2",
        attribute_display_type: "list",
        attribute_values: ["a", 5],
      }),
      422,
    );
    expect(wrongItem.details.map((d) => d.path).join(" ")).toContain("attribute_values");
  });
});

describe("account features", () => {
  it("reports help_center and reports true by default, keeping the key set", async () => {
    const { account, agent } = await createWorld();
    const res = await api(base(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.features).toMatchObject({ help_center: true, reports: true, webhooks: true });
  });

  it("help_center and reports follow the flag a platform app sets", async () => {
    const app = await createPlatformApp();
    const created = await api("/platform/api/v1/accounts", {
      token: app.token,
      body: { name: "Acme", features: { help_center: false, reports: false, labels: true } },
    });
    expect(created.status).toBe(200);
    expect(created.body.enabled_features).toMatchObject({
      help_center: false,
      reports: false,
      labels: true,
    });
    expect(created.body.features).toMatchObject({ help_center: false, reports: false });
  });
});
