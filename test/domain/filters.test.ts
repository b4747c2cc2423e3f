import { and, asc, eq, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { ApiError } from "../../worker/lib/errors";
import { compileFilter } from "../../worker/modules/filters/compile";
import { contactFilterFields } from "../../worker/modules/filters/contact-fields";
import type { CustomDefinition } from "../../worker/modules/filters/types";
import { createAccount, db } from "../support/factories";
import { createContact, tagContact } from "../support/factories-contacts";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const NOW = Date.parse("2024-04-01T10:00:00Z");
const dialect = new SQLiteSyncDialect();

const DEFS: CustomDefinition[] = [
  { attributeKey: "plan", attributeDisplayType: "text" },
  { attributeKey: "seats", attributeDisplayType: "number" },
  { attributeKey: "vip", attributeDisplayType: "checkbox" },
  { attributeKey: "renewal", attributeDisplayType: "date" },
  { attributeKey: "site", attributeDisplayType: "link" },
  { attributeKey: "tier", attributeDisplayType: "list" },
  { attributeKey: "price.eur", attributeDisplayType: "currency" },
];

type Cond = {
  attribute_key: unknown;
  filter_operator: unknown;
  values?: unknown;
  query_operator?: unknown;
};
const c = (key: unknown, op: unknown, values?: unknown, q?: unknown): Cond => ({
  attribute_key: key,
  filter_operator: op,
  values,
  query_operator: q,
});

let accountId: number;
const ids: Record<string, number> = {};

/** The hand-made data set every contact test below runs against. */
beforeAll(async () => {
  accountId = (await createAccount()).id;
  const people = {
    alice: {
      name: "Alice Smith",
      email: "alice@acme.io",
      phoneNumber: "+14155550001",
      identifier: "ext-1",
      createdAt: at("2024-01-10T12:00:00Z"),
      lastActivityAt: at("2024-03-01T08:00:00Z"),
      additionalAttributes: { city: "Berlin", country_code: "DE", company_name: "Acme" },
      customAttributes: {
        plan: "Pro",
        seats: 10,
        vip: true,
        renewal: "2024-06-01",
        site: "https://acme.io",
        tier: "gold",
        "price.eur": 99.5,
      },
    },
    bob: {
      name: "bob jones",
      email: "bob@beta.io",
      phoneNumber: "+4930123456",
      blocked: true,
      createdAt: at("2024-02-15T00:00:00Z"),
      additionalAttributes: { city: "Paris", country_code: "FR" },
      customAttributes: { plan: "free", seats: 9, vip: false, renewal: "2024-01-31T10:00:00Z" },
    },
    carol: {
      name: "Carol",
      email: null,
      phoneNumber: "+14155550003",
      createdAt: at("2024-03-20T23:59:59Z"),
      lastActivityAt: at("2024-03-25T00:00:00Z"),
      customAttributes: { seats: 100 },
    },
    quote: {
      name: "O'Brien 100%_done",
      email: "ob@x.io",
      createdAt: at("2024-03-31T00:00:00Z"),
      customAttributes: { plan: "') OR 1=1 --" },
    },
  };
  for (const [key, values] of Object.entries(people)) {
    ids[key] = (await createContact(accountId, values)).id;
  }
  await tagContact(ids.alice as number, ["vip", "beta"]);
  await tagContact(ids.bob as number, ["lead"]);
});

async function matching(payload: unknown, defs = DEFS): Promise<string[]> {
  const where = compileFilter(payload, contactFilterFields, defs, { nowMs: NOW });
  const rows = await db()
    .select({ id: t.contacts.id })
    .from(t.contacts)
    .where(and(eq(t.contacts.accountId, accountId), where))
    .orderBy(asc(t.contacts.id))
    .all();
  const names = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  return rows.map((r) => names[r.id] as string);
}

function refused(payload: unknown, path: string, config = contactFilterFields): ApiError {
  try {
    compileFilter(payload, config, DEFS, { nowMs: NOW });
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.details.map((d) => d.path)).toEqual([path]);
    return e;
  }
  throw new Error(`expected a 422 for ${JSON.stringify(payload)}`);
}

describe("compileFilter: standard contact keys", () => {
  it("compares text case-insensitively, values[0] only", async () => {
    expect(await matching([c("name", "equal_to", ["ALICE smith", "Carol"])])).toEqual(["alice"]);
    expect(await matching([c("name", "contains", ["SMI"])])).toEqual(["alice"]);
    expect(await matching([c("email", "does_not_contain", ["acme"])])).toEqual(["bob", "quote"]);
    expect(await matching([c("city", "equal_to", "paris")])).toEqual(["bob"]);
    expect(await matching([c("company", "contains", ["ACM"])])).toEqual(["alice"]);
    expect(await matching([c("country_code", "not_equal_to", ["de"])])).toEqual(["bob"]);
    expect(await matching([c("identifier", "equal_to", ["EXT-1"])])).toEqual(["alice"]);
  });

  it("leaves NULL columns out of not_equal_to, as Chatwoot's SQL does", async () => {
    expect(await matching([c("email", "not_equal_to", ["alice@acme.io"])])).toEqual([
      "bob",
      "quote",
    ]);
  });

  it("prefixes phone values with + for equal_to and starts_with", async () => {
    expect(await matching([c("phone_number", "starts_with", ["1415"])])).toEqual([
      "alice",
      "carol",
    ]);
    expect(await matching([c("phone_number", "equal_to", ["4930123456"])])).toEqual(["bob"]);
    expect(await matching([c("phone_number", "contains", ["5550"])])).toEqual(["alice", "carol"]);
  });

  it("compares dates by UTC day, both ends exclusive, and days_before from today", async () => {
    expect(await matching([c("created_at", "is_greater_than", ["2024-01-10"])])).toEqual([
      "bob",
      "carol",
      "quote",
    ]);
    expect(await matching([c("created_at", "is_less_than", ["2024-02-15"])])).toEqual(["alice"]);
    expect(await matching([c("created_at", "is_less_than", ["2024-03-20T05:00:00Z"])])).toEqual([
      "alice",
      "bob",
    ]);
    // NOW is 2024-04-01: 12 days before is 2024-03-20, so created strictly before that day.
    expect(await matching([c("created_at", "days_before", [12])])).toEqual(["alice", "bob"]);
    expect(await matching([c("last_activity_at", "is_greater_than", ["2024-03-01"])])).toEqual([
      "carol",
    ]);
  });

  it("filters booleans from JSON booleans or strings", async () => {
    expect(await matching([c("blocked", "equal_to", [true])])).toEqual(["bob"]);
    expect(await matching([c("blocked", "not_equal_to", ["true"])])).toEqual([
      "alice",
      "carol",
      "quote",
    ]);
  });

  it("filters labels: any of the values, absent, present", async () => {
    expect(await matching([c("labels", "equal_to", ["VIP", "lead"])])).toEqual(["alice", "bob"]);
    expect(await matching([c("labels", "not_equal_to", ["vip"])])).toEqual([
      "bob",
      "carol",
      "quote",
    ]);
    expect(await matching([c("labels", "is_present")])).toEqual(["alice", "bob"]);
    expect(await matching([c("labels", "is_not_present", [])])).toEqual(["carol", "quote"]);
  });

  it("matches every row for an empty payload", async () => {
    expect(await matching([])).toEqual(["alice", "bob", "carol", "quote"]);
  });
});

describe("compileFilter: and/or chains", () => {
  it("binds AND tighter than OR: A and B or C = (A and B) or C", async () => {
    const chain = [
      c("city", "equal_to", ["Paris"], "and"),
      c("blocked", "equal_to", [false], "or"),
      c("email", "contains", ["acme"], null),
    ];
    // As A and (B or C) this would match nobody.
    expect(await matching(chain)).toEqual(["alice"]);
  });

  it("binds AND tighter than OR: A or B and C = A or (B and C)", async () => {
    const chain = [
      c("name", "contains", ["alice"], "OR"),
      c("city", "equal_to", ["Paris"], "And"),
      c("blocked", "equal_to", [true]),
    ];
    // As (A or B) and C this would be only bob.
    expect(await matching(chain)).toEqual(["alice", "bob"]);
  });

  it("chains several groups", async () => {
    const chain = [
      c("seats", "is_greater_than", [50], "or"),
      c("labels", "equal_to", ["lead"], "and"),
      c("city", "equal_to", ["paris"], "or"),
      c("name", "contains", ["brien"]),
    ];
    expect(await matching(chain)).toEqual(["bob", "carol", "quote"]);
  });
});

describe("compileFilter: custom attributes by display type", () => {
  it("compares numbers as numbers, not strings (10 > 9)", async () => {
    expect(await matching([c("seats", "is_greater_than", ["9"])])).toEqual(["alice", "carol"]);
    expect(await matching([c("seats", "is_less_than", [10])])).toEqual(["bob"]);
    expect(await matching([c("seats", "equal_to", ["10.0"])])).toEqual(["alice"]);
    expect(await matching([c("price.eur", "is_greater_than", [99])])).toEqual(["alice"]);
  });

  it("lets not_equal_to also match contacts without the key", async () => {
    expect(await matching([c("seats", "not_equal_to", [10])])).toEqual(["bob", "carol", "quote"]);
  });

  it("compares text, link and list lower-cased", async () => {
    expect(await matching([c("plan", "equal_to", ["pro"])])).toEqual(["alice"]);
    expect(await matching([c("plan", "starts_with", ["FR"])])).toEqual(["bob"]);
    expect(await matching([c("site", "contains", ["ACME.io"])])).toEqual(["alice"]);
    expect(await matching([c("tier", "equal_to", ["GOLD"])])).toEqual(["alice"]);
    expect(await matching([c("plan", "is_present")])).toEqual(["alice", "bob", "quote"]);
    expect(await matching([c("plan", "is_not_present")])).toEqual(["carol"]);
  });

  it("compares checkbox values as booleans", async () => {
    expect(await matching([c("vip", "equal_to", [true])])).toEqual(["alice"]);
    expect(await matching([c("vip", "equal_to", ["false"])])).toEqual(["bob"]);
  });

  it("compares dates by day", async () => {
    expect(await matching([c("renewal", "is_greater_than", ["2024-05-31"])])).toEqual(["alice"]);
    expect(await matching([c("renewal", "equal_to", ["2024-01-31"])])).toEqual(["bob"]);
    expect(await matching([c("renewal", "days_before", ["30"])])).toEqual(["bob"]);
  });
});

describe("compileFilter: refusals (422)", () => {
  it("refuses unknown keys, naming them", () => {
    const err = refused([c("nope", "equal_to", ["x"])], "payload.0.attribute_key");
    expect(err.message).toContain("Invalid attribute key - [nope]");
    refused([c(42, "equal_to", ["x"])], "payload.0.attribute_key");
    refused([c("__proto__", "equal_to", ["x"])], "payload.0.attribute_key");
  });

  it("refuses unknown operators and operators the key does not allow", () => {
    refused([c("name", "like", ["x"])], "payload.0.filter_operator");
    const err = refused([c("identifier", "contains", ["x"])], "payload.0.filter_operator");
    expect(err.message).toContain("equal_to,not_equal_to");
    refused([c("seats", "contains", ["1"])], "payload.0.filter_operator");
    refused([c("created_at", "equal_to", ["2024-01-01"])], "payload.0.filter_operator");
  });

  it("refuses missing, invalid and trailing query operators", () => {
    refused(
      [c("name", "contains", ["a"]), c("name", "contains", ["b"])],
      "payload.0.query_operator",
    );
    refused(
      [c("name", "contains", ["a"], "xor"), c("name", "contains", ["b"])],
      "payload.0.query_operator",
    );
    refused([c("name", "contains", ["a"], "and")], "payload.0.query_operator");
  });

  it("refuses blank and mistyped values", () => {
    for (const values of [[], [""], ["  "], [{}], { a: 1 }, [null], [true]]) {
      refused([c("name", "equal_to", values)], "payload.0.values");
    }
    refused([c("seats", "is_greater_than", ["ten"])], "payload.0.values");
    refused([c("seats", "is_greater_than", ["1e3"])], "payload.0.values");
    refused([c("blocked", "equal_to", ["maybe"])], "payload.0.values");
    refused([c("created_at", "is_greater_than", ["2024-13-01"])], "payload.0.values");
    refused([c("created_at", "is_greater_than", ["yesterday"])], "payload.0.values");
    for (const days of [0, 999, "x", 1.5]) {
      refused([c("created_at", "days_before", [days])], "payload.0.values");
    }
  });

  it("refuses malformed payloads and oversized ones", () => {
    refused({ attribute_key: "name" }, "payload");
    refused(["name"], "payload.0");
    refused(
      Array.from({ length: 26 }, () => c("name", "contains", ["a"], "or")),
      "payload",
    );
    const many = Array.from({ length: 90 }, (_, i) => `label${i}`);
    refused([c("labels", "equal_to", many)], "payload");
  });
});

describe("compileFilter: injection attempts", () => {
  const hostile = [
    "') OR 1=1 --",
    "' OR '1'='1",
    '" OR ""="',
    "%",
    "_",
    "'; DROP TABLE contacts; --",
    "$.plan",
  ];

  it("binds every value: hostile text matches only itself and never errors", async () => {
    for (const value of hostile) {
      const expected = value === "') OR 1=1 --" ? ["quote"] : [];
      expect(await matching([c("plan", "equal_to", [value])])).toEqual(expected);
      expect(await matching([c("name", "equal_to", [value])])).toEqual([]);
      const compiled = dialect.sqlToQuery(
        compileFilter([c("name", "contains", [value])], contactFilterFields, DEFS) as SQL,
      );
      expect(compiled.sql).not.toContain(value);
      expect(compiled.params).toContain(value.toLowerCase());
    }
    // LIKE wildcards are plain characters: only the contact whose name holds them matches.
    expect(await matching([c("name", "contains", ["%_"])])).toEqual(["quote"]);
  });

  it("refuses hostile keys instead of building SQL from them", () => {
    for (const key of ["name') OR 1=1 --", 'plan"', "plan' OR '1'='1", "$.plan", "plan[0]"]) {
      refused([c(key, "equal_to", ["x"])], "payload.0.attribute_key");
    }
  });

  it("never builds a JSON path from a definition key outside the safe alphabet", () => {
    const evil: CustomDefinition[] = [
      { attributeKey: 'a") OR 1=1 --', attributeDisplayType: "text" },
      { attributeKey: 'x"."y', attributeDisplayType: "text" },
    ];
    for (const def of evil) {
      expect(() =>
        compileFilter([c(def.attributeKey, "is_present")], contactFilterFields, evil),
      ).toThrow(ApiError);
    }
  });

  it("refuses hostile operators and query operators", () => {
    refused([c("name", "equal_to) OR (1=1", ["x"])], "payload.0.filter_operator");
    refused(
      [c("name", "contains", ["a"], "OR 1=1 OR"), c("name", "contains", ["b"])],
      "payload.0.query_operator",
    );
  });
});
