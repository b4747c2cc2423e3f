import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { checkResponse, findRoute, undeclaredKeys } from "../support/expect-schema";
import { createWorld } from "../support/factories";
import { createContact } from "../support/factories-contacts";
import { api } from "../support/http";

// The checker `api()` runs on every JSON response: it must find the route a request is served
// by, and fail on a body that drifts from that route's response schema.

const contactPath = (accountId: number, id: number) =>
  `/api/v1/accounts/${accountId}/contacts/${id}`;

describe("findRoute", () => {
  it("matches a concrete path and query to its template, literal segments first", () => {
    expect(findRoute("GET", "/api/v1/accounts/3/contacts/17?page=2")?.path).toBe(
      "/api/v1/accounts/{account_id}/contacts/{id}",
    );
    expect(findRoute("GET", "/api/v1/accounts/3/contacts/search?q=a")?.path).toBe(
      "/api/v1/accounts/{account_id}/contacts/search",
    );
    expect(findRoute("get", "/api/v1/accounts/3/conversations/meta")?.path).toBe(
      "/api/v1/accounts/{account_id}/conversations/meta",
    );
  });

  it("requires the method to match", () => {
    expect(findRoute("DELETE", "/api/v1/accounts/3/contacts/search")?.path).toBe(
      "/api/v1/accounts/{account_id}/contacts/{id}",
    );
    expect(findRoute("PUT", "/api/v1/accounts/3/conversations/meta")).toBeUndefined();
    expect(findRoute("GET", "/api/v1/accounts/3/nothing/here")).toBeUndefined();
  });
});

describe("checkResponse", () => {
  it("accepts a real response (api() already checked it) and its own re-check", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id);
    const res = await api(contactPath(account.id, contact.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(() =>
      checkResponse("GET", contactPath(account.id, contact.id), 200, res.body),
    ).not.toThrow();
  });

  it("fails with the route, status and zod issue paths on a drifted body", () => {
    const run = () =>
      checkResponse("GET", "/api/v1/accounts/3/contacts/17", 200, {
        payload: { id: "17", name: 42 },
      });
    expect(run).toThrow("GET /api/v1/accounts/{account_id}/contacts/{id} → 200");
    expect(run).toThrow(/- payload\.id: /);
    expect(run).toThrow(/- payload\.name: /);
  });

  it("fails on a key the schema does not declare, however deep", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id, { customAttributes: { free: 1 } });
    const path = contactPath(account.id, contact.id);
    const res = await api(path, { token: agent.token });
    // custom_attributes is a record: free keys there are fine.
    expect(res.body.payload.custom_attributes).toEqual({ free: 1 });
    const drifted = structuredClone(res.body);
    drifted.payload.internal_flag = true;
    expect(() => checkResponse("GET", path, 200, drifted)).toThrow(
      "payload.internal_flag: not declared by the response schema",
    );
  });

  it("fails on a status the route does not declare and on undocumented routes", () => {
    expect(() => checkResponse("GET", "/api/v1/accounts/3/contacts/17", 201, {})).toThrow(
      "declares no 201 response",
    );
    expect(() => checkResponse("GET", "/api/v1/accounts/3/nothing", 200, {})).toThrow(
      "no documented route serves GET /api/v1/accounts/3/nothing",
    );
  });

  it("checks error bodies against the one error shape", () => {
    const error = { error: "Nope", code: "not_found", details: [], request_id: "r1" };
    expect(() => checkResponse("GET", "/anything", 404, error)).not.toThrow();
    expect(() => checkResponse("GET", "/anything", 404, { ...error, stack: "…" })).toThrow(
      "stack: not declared by the response schema",
    );
    expect(() => checkResponse("GET", "/anything", 422, { message: "Nope" })).toThrow(
      "(error shape)",
    );
  });
});

describe("undeclaredKeys", () => {
  const schema = z.object({
    attrs: z.record(z.string(), z.unknown()),
    anything: z.unknown(),
    loose: z.object({ a: z.number() }).loose(),
    choice: z.union([z.object({ x: z.number() }), z.object({ x: z.number(), y: z.number() })]),
    list: z.array(z.object({ id: z.number() }).nullable()).optional(),
  });

  it("lets records, unknown values and loose objects carry free keys, and picks the union option that fits", () => {
    const value = {
      attrs: { any: 1 },
      anything: { deep: { free: true } },
      loose: { a: 1, b: 2 },
      choice: { x: 1, y: 2 },
      list: [{ id: 1 }, null],
    };
    expect(schema.safeParse(value).success).toBe(true);
    expect(undeclaredKeys(schema, value)).toEqual([]);
  });

  it("reports the path of every undeclared key", () => {
    const value = {
      attrs: {},
      anything: null,
      loose: { a: 1 },
      choice: { x: 1, z: 3 },
      list: [{ id: 1 }, { id: 2, extra: true }],
      top: 1,
    };
    expect(undeclaredKeys(schema, value)).toEqual(["choice.z", "list.1.extra", "top"]);
  });
});
