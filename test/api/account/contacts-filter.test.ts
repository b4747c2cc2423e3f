import { describe, expect, it } from "vitest";
import { createWorld } from "../../support/factories";
import { createContact, createDefinition, tagContact } from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const filterPath = (accountId: number) => `/api/v1/accounts/${accountId}/contacts/filter`;

const cond = (
  attribute_key: string,
  filter_operator: string,
  values: unknown,
  q?: string | null,
) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator: q ?? null,
});

/** A hand-made account: custom attributes of several types, labels, a foreign contact. */
async function dataSet() {
  const world = await createWorld();
  const id = world.account.id;
  await createDefinition(id, { attributeKey: "seats", attributeDisplayType: "number" });
  await createDefinition(id, { attributeKey: "mrr", attributeDisplayType: "currency" });
  await createDefinition(id, {
    attributeKey: "plan",
    attributeDisplayType: "list",
    attributeValues: ["free", "pro"],
  });
  await createDefinition(id, { attributeKey: "trial", attributeDisplayType: "checkbox" });
  await createDefinition(id, { attributeKey: "signup", attributeDisplayType: "date" });
  const people = {
    ada: await createContact(id, {
      name: "Ada Lovelace",
      email: "ada@math.org",
      additionalAttributes: { city: "London", country_code: "GB" },
      customAttributes: {
        seats: 10,
        mrr: "1200.50",
        plan: "pro",
        trial: false,
        signup: "2024-01-05",
      },
    }),
    bea: await createContact(id, {
      name: "Bea",
      email: "bea@shop.io",
      blocked: true,
      additionalAttributes: { city: "Leeds", country_code: "GB" },
      customAttributes: { seats: 9, mrr: 99, plan: "free", trial: true, signup: "2024-02-10" },
    }),
    cy: await createContact(id, {
      name: "Cy",
      email: null,
      phoneNumber: "+33612345678",
      additionalAttributes: { city: "Paris", country_code: "FR" },
      customAttributes: { seats: 100 },
    }),
    ghost: await createContact(id, { name: "Ghost", email: null, customAttributes: { seats: 50 } }),
  };
  await tagContact(people.ada.id, ["vip"]);
  await tagContact(people.cy.id, ["churn-risk"]);
  // Never visible: another account's contact with matching data.
  await createContact((await createWorld()).account.id, {
    name: "Ada Clone",
    customAttributes: { seats: 999 },
  });
  const names = new Map(Object.entries(people).map(([k, v]) => [v.id, k]));
  const filter = async (payload: unknown, query = "", extra: Record<string, unknown> = {}) => {
    const res = await api(`${filterPath(id)}${query}`, {
      method: "POST",
      token: world.agent.token,
      body: { payload, ...extra },
    });
    return {
      res,
      names:
        res.status === 200
          ? res.body.payload.map((c: { id: number }) => names.get(c.id)).sort()
          : [],
    };
  };
  return { world, people, filter };
}

describe("POST contacts/filter (E2)", () => {
  it("answers the list shape with the total count", async () => {
    const { filter } = await dataSet();
    const { res, names } = await filter([cond("country_code", "equal_to", ["gb"])]);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ count: 2, current_page: 1 });
    expect(names).toEqual(["ada", "bea"]);
    expect(res.body.payload[0]).toHaveProperty("contact_inboxes");
    expect(res.body.payload[0].additional_attributes).toHaveProperty("created_at_ip", "");
  });

  it("compares numeric custom attributes as numbers, from JSON numbers or numeric strings", async () => {
    const { filter } = await dataSet();
    expect((await filter([cond("seats", "is_greater_than", ["9"])])).names).toEqual(["ada", "cy"]);
    expect((await filter([cond("seats", "is_greater_than", [9])])).names).toEqual(["ada", "cy"]);
    expect((await filter([cond("seats", "is_less_than", "10")])).names).toEqual(["bea"]);
    expect((await filter([cond("mrr", "is_greater_than", [100])])).names).toEqual(["ada"]);
    expect((await filter([cond("plan", "equal_to", ["PRO"])])).names).toEqual(["ada"]);
    expect((await filter([cond("trial", "equal_to", [true])])).names).toEqual(["bea"]);
    expect((await filter([cond("signup", "is_less_than", ["2024-02-01"])])).names).toEqual(["ada"]);
    expect((await filter([cond("plan", "not_equal_to", ["pro"])])).names).toEqual(["bea", "cy"]);
  });

  it("chains with Chatwoot's precedence: AND binds tighter than OR", async () => {
    const { filter } = await dataSet();
    // (London and blocked) or Paris = cy; read as London and (blocked or Paris) it is nobody.
    expect(
      (
        await filter([
          cond("city", "equal_to", ["London"], "and"),
          cond("blocked", "equal_to", [true], "or"),
          cond("city", "equal_to", ["Paris"]),
        ])
      ).names,
    ).toEqual(["cy"]);
    expect(
      (
        await filter([
          cond("labels", "equal_to", ["vip"], "or"),
          cond("seats", "is_greater_than", ["50"], "and"),
          cond("city", "contains", ["par"]),
        ])
      ).names,
    ).toEqual(["ada", "cy"]);
    expect(
      (
        await filter([
          cond("name", "contains", ["a"], "AND"),
          cond("seats", "is_less_than", [50], "OR"),
          cond("labels", "is_present", []),
        ])
      ).names,
    ).toEqual(["ada", "bea", "cy"]);
  });

  it("takes the page from the query or the body and pages by 15", async () => {
    const world = await createWorld();
    for (let i = 0; i < 16; i++) {
      await createContact(world.account.id, { name: `Lead ${i}` });
    }
    const call = (query: string, body: Record<string, unknown>) =>
      api(`${filterPath(world.account.id)}${query}`, {
        method: "POST",
        token: world.admin.token,
        body: { payload: [cond("name", "contains", ["lead"])], ...body },
      });
    const first = await call("", {});
    expect(first.body.meta).toEqual({ count: 16, current_page: 1 });
    expect(first.body.payload).toHaveLength(15);
    const viaQuery = await call("?page=2", {});
    expect(viaQuery.body.meta).toEqual({ count: 16, current_page: "2" });
    expect(viaQuery.body.payload).toHaveLength(1);
    const viaBody = await call("", { page: 2 });
    expect(viaBody.body.meta).toEqual({ count: 16, current_page: 2 });
    expect(viaBody.body.payload).toHaveLength(1);
    // Chatwoot serves page 1 for a page below 1.
    const zero = await call("", { page: 0 });
    expect(zero.body.meta).toEqual({ count: 16, current_page: 1 });
    expect(zero.body.payload).toHaveLength(15);
  });

  it("answers 422 for unknown keys, operators, values and chains, with Chatwoot's messages", async () => {
    const { filter } = await dataSet();
    const cases: [unknown, string, string][] = [
      [
        [cond("favourite", "equal_to", ["x"])],
        "payload.0.attribute_key",
        "Invalid attribute key - [favourite]",
      ],
      [[cond("name", "is_greater_than", ["x"])], "payload.0.filter_operator", "Invalid operator"],
      [[cond("seats", "is_greater_than", ["lots"])], "payload.0.values", "Invalid value"],
      [[cond("name", "equal_to", [])], "payload.0.values", "Invalid value"],
      [[cond("created_at", "days_before", ["999"])], "payload.0.values", "Invalid value"],
      [
        [cond("name", "contains", ["a"]), cond("name", "contains", ["b"])],
        "payload.0.query_operator",
        "query_operator",
      ],
      [[cond("name", "contains", ["a"], "and")], "payload.0.query_operator", "last condition"],
      [
        [cond("name", "contains", ["a"], "nand"), cond("name", "contains", ["b"])],
        "payload.0.query_operator",
        '"AND" or "OR"',
      ],
    ];
    for (const [payload, path, message] of cases) {
      const err = expectError((await filter(payload)).res, 422, "validation_failed");
      expect(err.details.map((d) => d.path)).toEqual([path]);
      expect(err.error).toContain(message);
    }
    expectError((await filter("name")).res, 422);
    const { world } = await dataSet();
    expectError(
      await api(filterPath(world.account.id), {
        method: "POST",
        token: world.agent.token,
        body: {},
      }),
      422,
    );
  });

  it("binds hostile values and refuses hostile keys: no extra rows, no 500, nothing changed", async () => {
    const { world, filter } = await dataSet();
    for (const value of ["') OR 1=1 --", "' OR '1'='1", 'x" OR 1=1 --', "%", "*"]) {
      for (const key of ["name", "email", "city", "plan", "identifier"]) {
        const { res } = await filter([cond(key, "equal_to", [value])]);
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(0);
      }
      const { res } = await filter([cond("name", "contains", [value])]);
      expect(res.body.meta.count).toBe(0);
    }
    for (const key of [
      "name') OR 1=1 --",
      'seats" OR 1=1',
      "$.seats",
      "seats'",
      "custom_attributes",
    ]) {
      expectError((await filter([cond(key, "is_present", [])])).res, 422);
    }
    const all = await api(`/api/v1/accounts/${world.account.id}/contacts`, {
      token: world.agent.token,
    });
    expect(all.body.meta.count).toBe(3);
  });
});
