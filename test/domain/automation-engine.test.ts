import { describe, expect, it } from "vitest";
import {
  evaluate,
  type Facts,
  matches,
  type RuleCondition,
} from "../../worker/modules/automation-rules/engine";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Facts of one conversation, its contact and an incoming message; `over` replaces parts. */
function facts(over: Partial<Facts> = {}): Facts {
  return {
    conversation: {
      status: "open",
      priority: "high",
      assigneeId: 7,
      teamId: null,
      inboxId: 3,
      displayId: 42,
      labels: ["billing", "VIP"],
      additionalAttributes: {
        browser_language: "en",
        referer: "https://shop.example.com/Pricing",
        mail_subject: "Invoice #12",
      },
      customAttributes: { plan: "Pro", seats: 12, renewal: "2024-05-01", trial: false },
      createdAt: at("2024-03-20T08:00:00Z"),
      lastActivityAt: at("2024-03-31T23:59:00Z"),
    },
    contact: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      phoneNumber: "+4915112345",
      identifier: "cus_1",
      countryCode: "DE",
      blocked: false,
      additionalAttributes: { city: "Berlin", company_name: "Analytical Engines" },
      customAttributes: { tier: "gold", score: "7.5" },
      createdAt: at("2023-01-01T00:00:00Z"),
      lastActivityAt: null,
    },
    message: { content: "Where is my INVOICE?", messageType: "incoming", private: false },
    changedAttributes: {},
    definitions: [
      { key: "plan", type: "list", model: "conversation_attribute" },
      { key: "seats", type: "number", model: "conversation_attribute" },
      { key: "renewal", type: "date", model: "conversation_attribute" },
      { key: "trial", type: "checkbox", model: "conversation_attribute" },
      { key: "tier", type: "text", model: "contact_attribute" },
      { key: "score", type: "percent", model: "contact_attribute" },
      { key: "missing", type: "text", model: "contact_attribute" },
    ],
    now: at("2024-04-01T10:00:00Z"),
    ...over,
  };
}

const c = (attribute_key: string, filter_operator: string, values?: unknown): RuleCondition => ({
  attribute_key,
  filter_operator,
  values,
});

type Row = [string, RuleCondition, boolean];

const standard: Row[] = [
  // equal_to / not_equal_to: any of the values, case-insensitive for text
  ["status equal_to", c("status", "equal_to", ["open"]), true],
  ["status equal_to another", c("status", "equal_to", ["resolved", "pending"]), false],
  ["status equal_to all", c("status", "equal_to", ["all"]), true],
  ["status not_equal_to", c("status", "not_equal_to", ["resolved"]), true],
  ["status not_equal_to itself", c("status", "not_equal_to", ["resolved", "open"]), false],
  ["priority equal_to", c("priority", "equal_to", ["high"]), true],
  ["inbox_id equal_to numeric string", c("inbox_id", "equal_to", ["3"]), true],
  ["inbox_id equal_to number", c("inbox_id", "equal_to", [4, 3]), true],
  ["inbox_id not_equal_to", c("inbox_id", "not_equal_to", [4]), true],
  ["display_id equal_to", c("display_id", "equal_to", [42]), true],
  ["assignee_id equal_to", c("assignee_id", "equal_to", ["7"]), true],
  ["team_id equal_to on none", c("team_id", "equal_to", ["1"]), false],
  ["team_id not_equal_to on none (NULL never matches)", c("team_id", "not_equal_to", ["1"]), false],
  ["email equal_to ignores case", c("email", "equal_to", ["ADA@example.com"]), true],
  ["name not_equal_to", c("name", "not_equal_to", ["Grace Hopper"]), true],
  ["browser_language equal_to", c("browser_language", "equal_to", ["en"]), true],
  [
    "conversation_language equal_to on absent",
    c("conversation_language", "equal_to", ["en"]),
    false,
  ],
  ["country_code falls back to the contact", c("country_code", "equal_to", ["de"]), true],
  ["identifier equal_to", c("identifier", "equal_to", ["cus_1"]), true],
  ["blocked equal_to false", c("blocked", "equal_to", ["false"]), true],
  ["blocked not_equal_to false", c("blocked", "not_equal_to", [false]), false],
  ["message_type equal_to", c("message_type", "equal_to", ["incoming"]), true],
  ["message_type not_equal_to", c("message_type", "not_equal_to", ["incoming"]), false],
  ["private_note equal_to", c("private_note", "equal_to", ["false"]), true],
  ["content equal_to ignores case", c("content", "equal_to", ["where is my invoice?"]), true],
  // contains / does_not_contain / starts_with: values[0], case-insensitive
  ["content contains", c("content", "contains", ["invoice"]), true],
  ["content contains other", c("content", "contains", ["refund"]), false],
  ["content does_not_contain", c("content", "does_not_contain", ["refund"]), true],
  ["content does_not_contain present", c("content", "does_not_contain", ["Invoice"]), false],
  ["content starts_with", c("content", "starts_with", ["where"]), true],
  ["referer contains", c("referer", "contains", ["pricing"]), true],
  ["mail_subject does_not_contain", c("mail_subject", "does_not_contain", ["invoice"]), false],
  ["city contains", c("city", "contains", ["erl"]), true],
  ["company contains", c("company", "contains", ["engines"]), true],
  ["phone_number starts_with", c("phone_number", "starts_with", ["+49"]), true],
  ["phone_number starts_with other", c("phone_number", "starts_with", ["+44"]), false],
  // is_present / is_not_present
  ["priority is_present", c("priority", "is_present"), true],
  ["team_id is_present", c("team_id", "is_present"), false],
  ["team_id is_not_present", c("team_id", "is_not_present"), true],
  ["assignee_id is_not_present", c("assignee_id", "is_not_present"), false],
  ["labels is_present", c("labels", "is_present"), true],
  ["labels is_not_present", c("labels", "is_not_present"), false],
  // labels: tagged with any / none of the values
  ["labels equal_to", c("labels", "equal_to", ["vip"]), true],
  ["labels equal_to none of them", c("labels", "equal_to", ["sales"]), false],
  ["labels not_equal_to", c("labels", "not_equal_to", ["sales"]), true],
  ["labels not_equal_to a tag it has", c("labels", "not_equal_to", ["sales", "billing"]), false],
  // dates compare by UTC day (both ends exclusive)
  ["created_at is_greater_than", c("created_at", "is_greater_than", ["2024-03-19"]), true],
  [
    "created_at is_greater_than same day",
    c("created_at", "is_greater_than", ["2024-03-20"]),
    false,
  ],
  ["created_at is_less_than", c("created_at", "is_less_than", ["2024-03-21"]), true],
  ["created_at is_less_than same day", c("created_at", "is_less_than", ["2024-03-20"]), false],
  ["created_at days_before 5", c("created_at", "days_before", ["5"]), true],
  ["created_at days_before 12", c("created_at", "days_before", ["12"]), false],
  ["last_activity_at days_before 1", c("last_activity_at", "days_before", [1]), false],
  ["unknown operator", c("status", "like", ["open"]), false],
];

const custom: Row[] = [
  ["list equal_to ignores case", c("plan", "equal_to", ["pro"]), true],
  ["list not_equal_to", c("plan", "not_equal_to", ["free"]), true],
  ["number equal_to", c("seats", "equal_to", ["12"]), true],
  ["number is_greater_than", c("seats", "is_greater_than", ["10"]), true],
  ["number is_less_than", c("seats", "is_less_than", ["10"]), false],
  ["percent (contact) is_greater_than", c("score", "is_greater_than", ["7"]), true],
  ["date is_greater_than", c("renewal", "is_greater_than", ["2024-04-30"]), true],
  ["date is_less_than", c("renewal", "is_less_than", ["2024-04-30"]), false],
  ["date days_before", c("renewal", "days_before", ["3"]), false],
  ["checkbox equal_to", c("trial", "equal_to", ["false"]), true],
  ["contact text contains", c("tier", "contains", ["OL"]), true],
  ["contact text starts_with", c("tier", "starts_with", ["go"]), true],
  ["contact text does_not_contain", c("tier", "does_not_contain", ["x"]), true],
  ["is_present", c("plan", "is_present"), true],
  ["is_not_present on a missing key", c("missing", "is_not_present"), true],
  ["missing key equal_to", c("missing", "equal_to", ["x"]), false],
  [
    "missing key not_equal_to (Chatwoot adds OR IS NULL)",
    c("missing", "not_equal_to", ["x"]),
    true,
  ],
  ["undefined key", c("nowhere", "equal_to", ["x"]), false],
];

describe("matches: standard keys, every operator", () => {
  it.each(standard)("%s", (_name, condition, expected) => {
    expect(matches(condition, facts())).toBe(expected);
  });
});

describe("matches: custom attributes, typed by their definition", () => {
  it.each(custom)("%s", (_name, condition, expected) => {
    expect(matches(condition, facts())).toBe(expected);
  });

  it("reads the contact's attribute when the hint says so", () => {
    const f = facts({
      definitions: [
        { key: "plan", type: "text", model: "conversation_attribute" },
        { key: "plan", type: "text", model: "contact_attribute" },
      ],
    });
    f.contact = {
      ...(f.contact as NonNullable<Facts["contact"]>),
      customAttributes: { plan: "basic" },
    };
    const cond = {
      ...c("plan", "equal_to", ["basic"]),
      custom_attribute_type: "contact_attribute",
    };
    expect(matches(cond, f)).toBe(true);
    expect(matches(c("plan", "equal_to", ["basic"]), f)).toBe(false);
  });
});

describe("matches: keys named like Object's own members", () => {
  // A custom attribute may be called "constructor": an absent one must not find the prototype's.
  const f = () =>
    facts({ definitions: [{ key: "constructor", type: "text", model: "conversation_attribute" }] });

  it("an absent attribute is not present", () => {
    expect(matches(c("constructor", "is_present"), f())).toBe(false);
    expect(matches(c("constructor", "is_not_present"), f())).toBe(true);
  });

  it("an attribute that did not change has not changed", () => {
    const cond = c("constructor", "attribute_changed", [{ from: ["nil"], to: ["nil"] }]);
    const unchanged = facts({
      changedAttributes: { custom_attributes: { previous_value: {}, current_value: {} } },
    });
    expect(matches(cond, unchanged)).toBe(false);
    expect(matches(cond, facts({ changedAttributes: {} }))).toBe(false);
  });
});

describe("matches: message keys without a message, and contacts without a contact", () => {
  it("never matches", () => {
    const f = facts({ message: null, contact: null });
    expect(matches(c("content", "contains", ["x"]), f)).toBe(false);
    expect(matches(c("content", "does_not_contain", ["x"]), f)).toBe(false);
    expect(matches(c("email", "not_equal_to", ["x"]), f)).toBe(false);
    expect(matches(c("email", "is_not_present"), f)).toBe(true);
  });
});

describe("matches: attribute_changed", () => {
  const changed = (changes: Facts["changedAttributes"]) => facts({ changedAttributes: changes });
  const rows: [string, RuleCondition, Facts["changedAttributes"], boolean][] = [
    [
      "status open → resolved",
      c("status", "attribute_changed", [{ from: ["open"], to: ["resolved"] }]),
      { status: { previous_value: "open", current_value: "resolved" } },
      true,
    ],
    [
      "values as a bare object",
      c("status", "attribute_changed", { from: ["open", "pending"], to: ["resolved"] }),
      { status: { previous_value: "pending", current_value: "resolved" } },
      true,
    ],
    [
      "the wrong direction",
      c("status", "attribute_changed", [{ from: ["open"], to: ["resolved"] }]),
      { status: { previous_value: "resolved", current_value: "open" } },
      false,
    ],
    [
      "not changed at all",
      c("status", "attribute_changed", [{ from: ["open"], to: ["resolved"] }]),
      { priority: { previous_value: null, current_value: "high" } },
      false,
    ],
    [
      "assignee from nobody to 7",
      c("assignee_id", "attribute_changed", [{ from: ["nil"], to: ["7"] }]),
      { assignee_id: { previous_value: null, current_value: 7 } },
      true,
    ],
    [
      "a conversation custom attribute",
      c("plan", "attribute_changed", [{ from: ["free"], to: ["pro"] }]),
      {
        custom_attributes: {
          previous_value: { plan: "free", seats: 1 },
          current_value: { plan: "Pro", seats: 1 },
        },
      },
      true,
    ],
    [
      "a custom attribute that did not change",
      c("seats", "attribute_changed", [{ from: ["1"], to: ["2"] }]),
      {
        custom_attributes: {
          previous_value: { plan: "free", seats: 1 },
          current_value: { plan: "pro", seats: 1 },
        },
      },
      false,
    ],
    [
      "malformed values",
      c("status", "attribute_changed", ["open"]),
      { status: { previous_value: "open", current_value: "resolved" } },
      false,
    ],
  ];
  it.each(rows)("%s", (_name, condition, changes, expected) => {
    expect(matches(condition, changed(changes))).toBe(expected);
  });
});

describe("evaluate: and / or chains, AND binding tighter than OR", () => {
  const T = c("status", "equal_to", ["open"]);
  const F = c("status", "equal_to", ["resolved"]);
  const j = (cond: RuleCondition, q: string | null) => ({ ...cond, query_operator: q });
  const rows: [string, RuleCondition[], boolean][] = [
    ["no conditions", [], true],
    ["T", [j(T, null)], true],
    ["F", [j(F, null)], false],
    ["T and T", [j(T, "and"), j(T, null)], true],
    ["T and F", [j(T, "and"), j(F, null)], false],
    ["F or T", [j(F, "or"), j(T, null)], true],
    ["F or F", [j(F, "or"), j(F, null)], false],
    ["F and F or T = (F and F) or T", [j(F, "and"), j(F, "or"), j(T, null)], true],
    ["T or F and F = T or (F and F)", [j(T, "or"), j(F, "and"), j(F, null)], true],
    ["F or T and F = F or (T and F)", [j(F, "or"), j(T, "and"), j(F, null)], false],
    ["T and F or F and T", [j(T, "and"), j(F, "or"), j(F, "and"), j(T, null)], false],
    ["upper-case operators", [j(F, "OR"), j(T, "AND"), j(T, null)], true],
  ];
  it.each(rows)("%s", (_name, conditions, expected) => {
    expect(evaluate({ conditions }, facts())).toBe(expected);
  });
});
