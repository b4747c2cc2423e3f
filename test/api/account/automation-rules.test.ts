import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createTeam, createWorld } from "../../support/factories";
import {
  createAttachment,
  createRule,
  defineAttribute,
  rulesOf,
} from "../../support/factories-automation";
import { api, expectError } from "../../support/http";

const rules = (accountId: number) => `/api/v1/accounts/${accountId}/automation_rules`;

const validRule = (inboxId: number) => ({
  name: "Billing questions",
  description: "Label and route billing questions",
  event_name: "message_created",
  conditions: [
    {
      attribute_key: "message_type",
      filter_operator: "equal_to",
      values: ["incoming"],
      query_operator: "and",
    },
    {
      attribute_key: "content",
      filter_operator: "contains",
      values: ["invoice"],
      query_operator: "or",
    },
    {
      attribute_key: "inbox_id",
      filter_operator: "equal_to",
      values: [inboxId],
      query_operator: null,
    },
  ],
  actions: [
    { action_name: "add_label", action_params: ["billing", "support"] },
    { action_name: "send_message", action_params: ["We are on it"] },
    { action_name: "resolve_conversation", action_params: [] },
  ],
});

describeAuthMatrix("GET automation_rules", {
  method: "GET",
  adminOnly: true,
  path: (w) => rules(w.account.id),
});
describeAuthMatrix("POST automation_rules", {
  method: "POST",
  adminOnly: true,
  path: (w) => rules(w.account.id),
  body: validRule(1),
});
describeAuthMatrix("GET automation_rules/{id}", {
  method: "GET",
  adminOnly: true,
  path: async (w) => `${rules(w.account.id)}/${(await createRule(w.account.id)).id}`,
});
describeAuthMatrix("PATCH automation_rules/{id}", {
  method: "PATCH",
  adminOnly: true,
  path: async (w) => `${rules(w.account.id)}/${(await createRule(w.account.id)).id}`,
  body: { name: "x" },
});
describeAuthMatrix("DELETE automation_rules/{id}", {
  method: "DELETE",
  adminOnly: true,
  path: async (w) => `${rules(w.account.id)}/${(await createRule(w.account.id)).id}`,
});
describeAuthMatrix("POST automation_rules/{id}/clone", {
  method: "POST",
  adminOnly: true,
  path: async (w) => `${rules(w.account.id)}/${(await createRule(w.account.id)).id}/clone`,
});

describe("GET /api/v1/accounts/{account_id}/automation_rules", () => {
  it("lists the account's rules newest first, 25 per page, with meta", async () => {
    const { account, admin } = await createWorld();
    const made = [];
    for (let i = 0; i < 27; i++) {
      made.push(await createRule(account.id));
    }
    await createRule((await createWorld()).account.id);
    const first = await api(rules(account.id), { token: admin.token });
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ count: 27, current_page: 1 });
    expect(first.body.payload).toHaveLength(25);
    expect(first.body.payload[0].id).toBe(made[26]?.id);
    const second = await api(`${rules(account.id)}?page=2`, { token: admin.token });
    expect(second.body.meta).toEqual({ count: 27, current_page: 2 });
    expect(second.body.payload.map((r: { id: number }) => r.id)).toEqual([
      made[1]?.id,
      made[0]?.id,
    ]);
  });

  it("renders the rule record", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id, { description: "d", active: false });
    const res = await api(rules(account.id), { token: admin.token });
    expect(res.body.payload).toEqual([
      {
        id: rule.id,
        account_id: account.id,
        name: rule.name,
        description: "d",
        event_name: "conversation_created",
        conditions: rule.conditions,
        actions: rule.actions,
        created_on: rule.createdAt,
        active: false,
      },
    ]);
  });

  it("answers 422 for a page beyond the last one served", async () => {
    const { account, admin } = await createWorld();
    expectError(await api(`${rules(account.id)}?page=100001`, { token: admin.token }), 422);
  });
});

describe("POST /api/v1/accounts/{account_id}/automation_rules", () => {
  it("creates a rule and answers {payload: rule}", async () => {
    const { account, admin, inbox } = await createWorld();
    const body = validRule(inbox.id);
    const res = await api(rules(account.id), { method: "POST", token: admin.token, body });
    expect(res.status).toBe(200);
    const rule = res.body.payload;
    expect(rule).toMatchObject({
      account_id: account.id,
      name: body.name,
      description: body.description,
      event_name: "message_created",
      actions: body.actions,
      active: true,
    });
    expect(rule.conditions).toEqual(body.conditions);
    expect(typeof rule.created_on).toBe("number");
    expect(Math.abs(rule.created_on - Date.now() / 1000)).toBeLessThan(60);
    const shown = await api(`${rules(account.id)}/${rule.id}`, { token: admin.token });
    expect(shown.body).toEqual({ payload: rule });
  });

  it("accepts the body wrapped under automation_rule, and stores a blank last query_operator as null", async () => {
    const { account, admin } = await createWorld();
    const res = await api(rules(account.id), {
      method: "POST",
      token: admin.token,
      body: {
        automation_rule: {
          name: "Wrapped",
          event_name: "conversation_created",
          active: false,
          conditions: [
            {
              attribute_key: "status",
              filter_operator: "equal_to",
              values: ["open"],
              query_operator: "",
            },
          ],
          actions: [{ action_name: "mute_conversation" }],
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      name: "Wrapped",
      description: null,
      active: false,
      conditions: [
        {
          attribute_key: "status",
          filter_operator: "equal_to",
          values: ["open"],
          query_operator: null,
        },
      ],
      actions: [{ action_name: "mute_conversation", action_params: [] }],
    });
  });

  it("accepts custom attribute keys of either model, attribute_changed and every action", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await defineAttribute(account.id, "plan", "conversation_attribute", "list");
    await defineAttribute(account.id, "tier", "contact_attribute", "number");
    const body = {
      name: "Everything",
      event_name: "conversation_updated",
      conditions: [
        {
          attribute_key: "plan",
          filter_operator: "equal_to",
          values: ["pro"],
          query_operator: "AND",
        },
        {
          attribute_key: "tier",
          filter_operator: "is_greater_than",
          values: ["2"],
          query_operator: "Or",
        },
        {
          attribute_key: "status",
          filter_operator: "attribute_changed",
          values: [{ from: ["open"], to: ["resolved"] }],
          query_operator: "and",
        },
        {
          attribute_key: "plan",
          filter_operator: "attribute_changed",
          values: { from: ["free"], to: ["pro"] },
          query_operator: "and",
        },
        {
          attribute_key: "created_at",
          filter_operator: "days_before",
          values: ["3"],
          query_operator: "and",
        },
        { attribute_key: "labels", filter_operator: "is_present", values: [] },
      ],
      actions: [
        { action_name: "assign_agent", action_params: [agent.id] },
        { action_name: "assign_agent", action_params: ["nil"] },
        { action_name: "assign_team", action_params: [String(team.id)] },
        { action_name: "assign_team", action_params: [0] },
        { action_name: "remove_assigned_agent", action_params: [] },
        { action_name: "remove_assigned_team", action_params: [] },
        { action_name: "remove_label", action_params: ["old"] },
        { action_name: "add_private_note", action_params: ["note"] },
        { action_name: "change_status", action_params: ["snoozed"] },
        { action_name: "change_priority", action_params: ["nil"] },
        { action_name: "change_priority", action_params: ["urgent"] },
        { action_name: "snooze_conversation", action_params: [] },
        { action_name: "open_conversation", action_params: [] },
        { action_name: "pending_conversation", action_params: [] },
        { action_name: "send_webhook_event", action_params: ["https://hooks.example.com/rule"] },
        {
          action_name: "send_email_to_team",
          action_params: [{ team_ids: [team.id], message: "Look" }],
        },
        { action_name: "send_email_transcript", action_params: ["a@example.com, b@example.org"] },
      ],
    };
    const res = await api(rules(account.id), { method: "POST", token: admin.token, body });
    expect(res.status).toBe(200);
    expect(res.body.payload.actions).toEqual(body.actions);
    expect(res.body.payload.conditions[3].values).toEqual({ from: ["free"], to: ["pro"] });
  });

  it("accepts send_attachment naming the account's attachments", async () => {
    const { account, admin, inbox } = await createWorld();
    const attachment = await createAttachment(account.id, inbox.id);
    const res = await api(rules(account.id), {
      method: "POST",
      token: admin.token,
      body: {
        name: "Terms",
        event_name: "conversation_created",
        conditions: [{ attribute_key: "inbox_id", filter_operator: "is_present" }],
        actions: [{ action_name: "send_attachment", action_params: [attachment.id] }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload.conditions[0].values).toEqual([]);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/automation_rules/{id}", () => {
  it("changes the given fields and keeps the others", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id, { description: "keep" });
    const res = await api(`${rules(account.id)}/${rule.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { automation_rule: { name: "Renamed", active: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      id: rule.id,
      name: "Renamed",
      description: "keep",
      active: false,
      event_name: rule.eventName,
      conditions: rule.conditions,
      actions: rule.actions,
    });
  });

  it("replaces conditions and actions wholesale", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id, {
      conditions: [
        {
          attribute_key: "status",
          filter_operator: "equal_to",
          values: ["open"],
          query_operator: "and",
        },
        {
          attribute_key: "priority",
          filter_operator: "is_present",
          values: [],
          query_operator: null,
        },
      ],
      actions: [
        { action_name: "add_label", action_params: ["a"] },
        { action_name: "mute_conversation", action_params: [] },
      ],
    });
    const conditions = [
      {
        attribute_key: "team_id",
        filter_operator: "is_not_present",
        values: [],
        query_operator: null,
      },
    ];
    const actions = [{ action_name: "change_priority", action_params: ["high"] }];
    const res = await api(`${rules(account.id)}/${rule.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { conditions, actions },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload.conditions).toEqual(conditions);
    expect(res.body.payload.actions).toEqual(actions);
  });

  it("answers 422, not 500, for condition keys that are only names of Object's prototype", async () => {
    const { account, admin, inbox } = await createWorld();
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const body = validRule(inbox.id);
      body.conditions = [
        { ...body.conditions[0], attribute_key: key, query_operator: null },
      ] as never;
      const res = await api(rules(account.id), { token: admin.token, body });
      expect(expectError(res, 422).details[0]?.path).toBe("conditions.0.attribute_key");
    }
    expect(await rulesOf(account.id)).toEqual([]);
  });

  it("checks the kept conditions against a new event, and changes nothing on 422", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id, {
      eventName: "message_created",
      conditions: [
        {
          attribute_key: "content",
          filter_operator: "contains",
          values: ["x"],
          query_operator: null,
        },
      ],
    });
    const res = await api(`${rules(account.id)}/${rule.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { event_name: "conversation_created", name: "changed" },
    });
    expect(expectError(res, 422).details[0]?.path).toBe("conditions.0.attribute_key");
    expect(await rulesOf(account.id)).toEqual([rule]);
  });

  it("answers 422 for invalid actions and keeps the rule", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id);
    const res = await api(`${rules(account.id)}/${rule.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { actions: [{ action_name: "assign_team", action_params: ["x"] }] },
    });
    expect(expectError(res, 422).details[0]?.path).toBe("actions.0.action_params");
    expect(await rulesOf(account.id)).toEqual([rule]);
  });

  it("answers 404 for unknown, malformed and other accounts' rule ids", async () => {
    const { account, admin } = await createWorld();
    const foreign = await createRule((await createWorld()).account.id);
    for (const id of [String(foreign.id), "999999999", "abc"]) {
      const res = await api(`${rules(account.id)}/${id}`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "x" },
      });
      expectError(res, 404, "not_found");
    }
  });
});

describe("DELETE /api/v1/accounts/{account_id}/automation_rules/{id}", () => {
  it("deletes the rule and answers {}", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id);
    const kept = await createRule(account.id);
    const res = await api(`${rules(account.id)}/${rule.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await rulesOf(account.id)).toEqual([kept]);
    expectError(await api(`${rules(account.id)}/${rule.id}`, { token: admin.token }), 404);
  });

  it("answers 404 for another account's rule and leaves it", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createRule(other.account.id);
    const res = await api(`${rules(account.id)}/${foreign.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expectError(res, 404, "not_found");
    expect(await rulesOf(other.account.id)).toEqual([foreign]);
  });
});

describe("POST /api/v1/accounts/{account_id}/automation_rules/{id}/clone", () => {
  it("copies the rule under a new id", async () => {
    const { account, admin } = await createWorld();
    const rule = await createRule(account.id, { description: "d", active: false });
    const res = await api(`${rules(account.id)}/${rule.id}/clone`, {
      method: "POST",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    const copy = res.body.payload;
    expect(copy.id).not.toBe(rule.id);
    expect(copy).toMatchObject({
      name: rule.name,
      description: "d",
      active: false,
      event_name: rule.eventName,
      conditions: rule.conditions,
      actions: rule.actions,
    });
    expect(await rulesOf(account.id)).toHaveLength(2);
  });

  it("answers 404 for another account's rule", async () => {
    const { account, admin } = await createWorld();
    const foreign = await createRule((await createWorld()).account.id);
    const res = await api(`${rules(account.id)}/${foreign.id}/clone`, {
      method: "POST",
      token: admin.token,
    });
    expectError(res, 404, "not_found");
  });
});
