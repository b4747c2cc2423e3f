import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { contactPageQueries } from "../../worker/modules/contacts/queries";
import { DEFAULT_SORT } from "../../worker/modules/contacts/service.list";
import { compileFilter } from "../../worker/modules/filters/compile";
import { contactFilterFields } from "../../worker/modules/filters/contact-fields";
import { queryPlan } from "../support/query-plan";

const db = createDb(env.DB);

const plan = async (query: Parameters<typeof queryPlan>[0]) => (await queryPlan(query)).join("\n");

/** SQLite's plans for the page and the count of an E2 filter, exactly as the service sends them. */
async function plansFor(payload: unknown[]) {
  const where = compileFilter(payload, contactFilterFields, []);
  const { page, total } = contactPageQueries(db, 1, where, DEFAULT_SORT, 15, 0);
  return { page: await plan(page), count: await plan(total) };
}

const one = (attribute_key: string, filter_operator: string, value: string) => [
  { attribute_key, filter_operator, values: [value], query_operator: null },
];

// These keep the E2 benchmark's large/small ratio bounded: each must be an index search.
describe("contact filter query plans", () => {
  it("finds an email through the unique (account_id, email) index", async () => {
    const { count } = await plansFor(one("email", "equal_to", "A@B.io"));
    expect(count).toMatch(/SEARCH contacts USING .*contacts_account_email_unique/);
  });

  it("finds a phone prefix through the (account_id, phone_number) index", async () => {
    const { count } = await plansFor(one("phone_number", "starts_with", "+1555"));
    expect(count).toMatch(/SEARCH contacts USING .*contacts_account_phone/);
  });

  // A city or company matches a share of all contacts, so its count and page must not read
  // (or sort) every match: the partial indexes answer the count alone and give the page in order.
  for (const [key, index] of [
    ["city", "contacts_account_city"],
    ["company", "contacts_account_company_name"],
  ] as const) {
    it(`counts and pages a ${key} from the partial ${index} index`, async () => {
      const { page, count } = await plansFor(one(key, "equal_to", "Paris"));
      // Usable only while the query repeats the index's WHERE; SQLite then never reads the rows.
      expect(count).toMatch(new RegExp(`SEARCH contacts USING (COVERING )?INDEX ${index} `));
      expect(page).toMatch(new RegExp(`SEARCH contacts USING INDEX ${index}`));
      expect(page).not.toMatch(/TEMP B-TREE/);
    });
  }
});
