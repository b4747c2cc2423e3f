import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld } from "../../support/factories";
import { createDefinition } from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const defs = (accountId: number) => `/api/v1/accounts/${accountId}/custom_attribute_definitions`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeAuthMatrix("GET custom_attribute_definitions", {
  method: "GET",
  path: (w) => defs(w.account.id),
});
describeAuthMatrix("GET custom_attribute_definitions/{id}", {
  method: "GET",
  path: async (w) => `${defs(w.account.id)}/${(await createDefinition(w.account.id)).id}`,
});
describeAuthMatrix("POST custom_attribute_definitions", {
  method: "POST",
  path: (w) => defs(w.account.id),
  body: { attribute_display_name: "Plan", attribute_key: "plan", attribute_display_type: 0 },
  adminOnly: true,
});
for (const method of ["PATCH", "PUT"]) {
  describeAuthMatrix(`${method} custom_attribute_definitions/{id}`, {
    method,
    path: async (w) => `${defs(w.account.id)}/${(await createDefinition(w.account.id)).id}`,
    body: { attribute_display_name: "Renamed" },
    adminOnly: true,
  });
}
describeAuthMatrix("DELETE custom_attribute_definitions/{id}", {
  method: "DELETE",
  path: async (w) => `${defs(w.account.id)}/${(await createDefinition(w.account.id)).id}`,
  adminOnly: true,
});

const create = (accountId: number, token: string, body: unknown) =>
  api(defs(accountId), { method: "POST", token, body });

describe("POST custom_attribute_definitions (E12)", () => {
  it("takes integer enums and answers with names and ISO timestamps", async () => {
    const { account, admin } = await createWorld();
    const res = await create(account.id, admin.token, {
      attribute_display_name: "Plan",
      attribute_key: "plan",
      attribute_display_type: 6,
      attribute_model: 1,
      attribute_description: "Billing plan",
      attribute_values: ["free", "pro"],
      default_value: "free",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      attribute_display_name: "Plan",
      attribute_display_type: "list",
      attribute_description: "Billing plan",
      attribute_key: "plan",
      regex_pattern: null,
      regex_cue: null,
      attribute_values: ["free", "pro"],
      attribute_model: "contact_attribute",
      default_value: "free",
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const shown = await api(`${defs(account.id)}/${res.body.id}`, { token: admin.token });
    expect(shown.body).toEqual(res.body);
  });

  it("accepts names, numeric strings and the Chatwoot wrapping; defaults to text conversation", async () => {
    const { account, admin } = await createWorld();
    const named = await create(account.id, admin.token, {
      custom_attribute_definition: {
        attribute_display_name: "Site",
        attribute_key: "site",
        attribute_display_type: "link",
        attribute_model: "conversation_attribute",
      },
    });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ attribute_display_type: "link", attribute_key: "site" });
    const numeric = await create(account.id, admin.token, {
      attribute_display_name: "Seats",
      attribute_key: "seats",
      attribute_display_type: "1",
      attribute_model: "1",
    });
    expect(numeric.body).toMatchObject({
      attribute_display_type: "number",
      attribute_model: "contact_attribute",
    });
    const defaults = await create(account.id, admin.token, {
      attribute_display_name: "Note",
      attribute_key: "note.v2-x",
      regex_pattern: "^[a-z]+$",
      regex_cue: "Lower-case letters only",
    });
    expect(defaults.body).toMatchObject({
      attribute_display_type: "text",
      attribute_model: "conversation_attribute",
      regex_pattern: "^[a-z]+$",
      regex_cue: "Lower-case letters only",
    });
  });

  it("keeps keys unique per account and model, but allows the same key in the other model", async () => {
    const { account, admin } = await createWorld();
    const body = { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 1 };
    expect((await create(account.id, admin.token, body)).status).toBe(200);
    const err = expectError(await create(account.id, admin.token, body), 422, "validation_failed");
    expect(err.details).toEqual([{ path: "attribute_key", message: "has already been taken" }]);
    const other = await create(account.id, admin.token, { ...body, attribute_model: 0 });
    expect(other.status).toBe(200);
    const elsewhere = await createWorld();
    expect((await create(elsewhere.account.id, elsewhere.admin.token, body)).status).toBe(200);
  });

  it("answers 422 naming each rule broken, and stores nothing", async () => {
    const { account, admin } = await createWorld();
    const base = { attribute_display_name: "X", attribute_key: "x", attribute_model: 1 };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...base, attribute_key: "email" }, ["attribute_key"]],
      [{ ...base, attribute_key: "status", attribute_model: 0 }, ["attribute_key"]],
      [{ ...base, attribute_key: "two words" }, ["attribute_key"]],
      [{ ...base, attribute_key: 'quo"te' }, ["attribute_key"]],
      [{ ...base, attribute_display_type: 1, regex_pattern: "^\\d+$" }, ["regex_pattern"]],
      [{ ...base, attribute_display_type: 5, regex_cue: "cue" }, ["regex_cue"]],
      [{ ...base, regex_pattern: "([a-z" }, ["regex_pattern"]],
      [{ ...base, attribute_display_type: 6 }, ["attribute_values"]],
      [{ ...base, attribute_display_type: 6, attribute_values: [] }, ["attribute_values"]],
      [{ ...base, attribute_values: ["a"] }, ["attribute_values"]],
      [{ ...base, attribute_display_type: 8 }, ["attribute_display_type"]],
      [{ ...base, attribute_display_type: "colour" }, ["attribute_display_type"]],
      [{ ...base, attribute_model: 2 }, ["attribute_model"]],
      [{ attribute_model: 1 }, ["attribute_display_name", "attribute_key"]],
      [{ ...base, attribute_values: "a,b", attribute_display_type: 6 }, ["attribute_values"]],
    ];
    for (const [body, paths] of cases) {
      const err = expectError(await create(account.id, admin.token, body), 422);
      expect([...new Set(err.details.map((d) => d.path))].sort()).toEqual(paths);
    }
    expect((await api(defs(account.id), { token: admin.token })).body).toEqual([]);
  });

  it("accepts empty regex and values fields for other types, as the dashboard sends them", async () => {
    const { account, admin } = await createWorld();
    const res = await create(account.id, admin.token, {
      attribute_display_name: "Seats",
      attribute_key: "seats",
      attribute_display_type: 1,
      attribute_model: 1,
      regex_pattern: "",
      regex_cue: "",
      attribute_values: [],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ regex_pattern: null, regex_cue: null, attribute_values: [] });
  });
});

describe("GET custom_attribute_definitions", () => {
  it("lists the account's definitions to agents, all or of one model", async () => {
    const { account, agent } = await createWorld();
    const contactDef = await createDefinition(account.id, { attributeModel: "contact_attribute" });
    const convDef = await createDefinition(account.id, {
      attributeModel: "conversation_attribute",
    });
    await createDefinition((await createWorld()).account.id);
    const all = await api(defs(account.id), { token: agent.token });
    expect(all.status).toBe(200);
    expect(all.body.map((d: { id: number }) => d.id)).toEqual([contactDef.id, convDef.id]);
    for (const model of ["contact_attribute", "1"]) {
      const res = await api(`${defs(account.id)}?attribute_model=${model}`, { token: agent.token });
      expect(res.body.map((d: { id: number }) => d.id)).toEqual([contactDef.id]);
    }
    const conv = await api(`${defs(account.id)}?attribute_model=0`, { token: agent.token });
    expect(conv.body.map((d: { id: number }) => d.id)).toEqual([convDef.id]);
    expectError(
      await api(`${defs(account.id)}?attribute_model=company`, { token: agent.token }),
      422,
    );
  });

  it("answers 404 for unknown, malformed and other accounts' ids", async () => {
    const { account, admin } = await createWorld();
    const foreign = await createDefinition((await createWorld()).account.id);
    for (const id of [String(foreign.id), "999999999", "abc"]) {
      expectError(await api(`${defs(account.id)}/${id}`, { token: admin.token }), 404, "not_found");
      expectError(
        await api(`${defs(account.id)}/${id}`, { method: "DELETE", token: admin.token }),
        404,
      );
    }
  });
});

describe("PATCH custom_attribute_definitions/{id}", () => {
  it("updates the sent fields and drops list values when the type leaves list", async () => {
    const { account, admin } = await createWorld();
    const def = await createDefinition(account.id, {
      attributeDisplayType: "list",
      attributeValues: ["a", "b"],
    });
    const res = await api(`${defs(account.id)}/${def.id}`, {
      method: "PATCH",
      token: admin.token,
      body: {
        custom_attribute_definition: {
          attribute_display_name: "Renamed",
          attribute_display_type: 0,
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      attribute_display_name: "Renamed",
      attribute_display_type: "text",
      attribute_values: [],
      attribute_key: def.attributeKey,
    });
  });

  it("answers 422 on a key clash or a broken rule and changes nothing", async () => {
    const { account, admin } = await createWorld();
    const taken = await createDefinition(account.id);
    const def = await createDefinition(account.id, { attributeDisplayType: "number" });
    const before = (await api(`${defs(account.id)}/${def.id}`, { token: admin.token })).body;
    for (const body of [
      { attribute_key: taken.attributeKey },
      { regex_pattern: "^x$" },
      { attribute_display_type: 6 },
      { attribute_key: "blocked" },
      { attribute_display_name: "" },
    ]) {
      expectError(
        await api(`${defs(account.id)}/${def.id}`, { method: "PUT", token: admin.token, body }),
        422,
      );
    }
    expect((await api(`${defs(account.id)}/${def.id}`, { token: admin.token })).body).toEqual(
      before,
    );
  });
});

describe("DELETE custom_attribute_definitions/{id}", () => {
  it("deletes and answers {}", async () => {
    const { account, admin } = await createWorld();
    const def = await createDefinition(account.id);
    const res = await api(`${defs(account.id)}/${def.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await api(`${defs(account.id)}/${def.id}`, { token: admin.token }), 404);
  });
});
