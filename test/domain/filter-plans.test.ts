import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { compileFilter } from "../../worker/modules/filters/compile";
import { contactFilterFields } from "../../worker/modules/filters/contact-fields";

const dialect = new SQLiteSyncDialect();

/** SQLite's plan for counting the contacts of one account that match `payload`. */
async function planFor(payload: unknown[]) {
  const where = and(eq(t.contacts.accountId, 1), compileFilter(payload, contactFilterFields, []));
  const query = dialect.sqlToQuery(where ?? eq(t.contacts.accountId, 1));
  const result = await env.DB.prepare(
    `EXPLAIN QUERY PLAN SELECT count(*) FROM contacts WHERE ${query.sql}`,
  )
    .bind(...query.params)
    .all<{ detail: string }>();
  return result.results.map((r) => r.detail).join("\n");
}

const one = (attribute_key: string, filter_operator: string, value: string) => [
  { attribute_key, filter_operator, values: [value], query_operator: null },
];

// These keep the E2 benchmark's large/small ratio bounded: each must be an index search.
describe("contact filter query plans", () => {
  it("finds an email through the unique (account_id, email) index", async () => {
    expect(await planFor(one("email", "equal_to", "A@B.io"))).toMatch(
      /SEARCH contacts USING .*contacts_account_email_unique/,
    );
  });

  it("finds a phone prefix through the (account_id, phone_number) index", async () => {
    expect(await planFor(one("phone_number", "starts_with", "+1555"))).toMatch(
      /SEARCH contacts USING .*contacts_account_phone/,
    );
  });

  it("finds a city and a company through their expression indexes", async () => {
    expect(await planFor(one("city", "equal_to", "Paris"))).toMatch(
      /SEARCH contacts USING .*contacts_account_city/,
    );
    expect(await planFor(one("company", "equal_to", "Acme"))).toMatch(
      /SEARCH contacts USING .*contacts_account_company_name/,
    );
  });
});
