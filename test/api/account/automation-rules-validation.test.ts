import { describe, expect, it } from "vitest";
import { createTeam, createWorld } from "../../support/factories";
import { createAttachment, defineAttribute, rulesOf } from "../../support/factories-automation";
import { api, expectError } from "../../support/http";

const rules = (accountId: number) => `/api/v1/accounts/${accountId}/automation_rules`;

describe("validation: every failure is a 422 naming the field, and nothing is stored", () => {
  const cond = (c: Record<string, unknown>) => ({
    attribute_key: "status",
    filter_operator: "equal_to",
    values: ["open"],
    ...c,
  });
  const act = (action_name: string, action_params: unknown[]) => ({ action_name, action_params });
  type Case = [string, (ctx: Ctx) => Record<string, unknown>, string];
  type Ctx = { otherTeam: number; otherUser: number; otherAttachment: number; team: number };
  const base = {
    name: "r",
    event_name: "conversation_created",
    conditions: [cond({})],
    actions: [act("resolve_conversation", [])],
  };
  const withCond = (...c: Record<string, unknown>[]) => ({ ...base, conditions: c });
  const withAct = (...a: Record<string, unknown>[]) => ({ ...base, actions: a });
  const cases: Case[] = [
    ["no name", () => ({ ...base, name: undefined }), "name"],
    ["blank name", () => ({ ...base, name: "  " }), "name"],
    ["unknown event", () => ({ ...base, event_name: "contact_created" }), "event_name"],
    ["no conditions", () => ({ ...base, conditions: [] }), "conditions"],
    ["conditions not a list", () => ({ ...base, conditions: "status" }), "conditions"],
    ["no actions", () => ({ ...base, actions: [] }), "actions"],
    ["active not boolean", () => ({ ...base, active: "yes" }), "active"],
    ["unknown key", () => withCond(cond({ attribute_key: "mood" })), "conditions.0.attribute_key"],
    [
      "message key off message_created",
      () => withCond(cond({ attribute_key: "content", values: ["x"] })),
      "conditions.0.attribute_key",
    ],
    [
      "operator not allowed for key",
      () => withCond(cond({ filter_operator: "contains" })),
      "conditions.0.filter_operator",
    ],
    [
      "unknown operator",
      () => withCond(cond({ filter_operator: "like" })),
      "conditions.0.filter_operator",
    ],
    [
      "attribute_changed off conversation_updated",
      () =>
        withCond(
          cond({
            filter_operator: "attribute_changed",
            values: [{ from: ["open"], to: ["resolved"] }],
          }),
        ),
      "conditions.0.filter_operator",
    ],
    [
      "attribute_changed on an unwatchable key",
      () => ({
        ...withCond(
          cond({
            attribute_key: "inbox_id",
            filter_operator: "attribute_changed",
            values: [{ from: ["1"], to: ["2"] }],
          }),
        ),
        event_name: "conversation_updated",
      }),
      "conditions.0.attribute_key",
    ],
    [
      "attribute_changed without from/to",
      () => ({
        ...withCond(cond({ filter_operator: "attribute_changed", values: ["open"] })),
        event_name: "conversation_updated",
      }),
      "conditions.0.values",
    ],
    ["blank values", () => withCond(cond({ values: [] })), "conditions.0.values"],
    [
      "blank text value",
      () => withCond(cond({ attribute_key: "email", values: [" "] })),
      "conditions.0.values",
    ],
    ["unknown status", () => withCond(cond({ values: ["closed"] })), "conditions.0.values"],
    [
      "non-numeric id",
      () => withCond(cond({ attribute_key: "inbox_id", values: ["abc"] })),
      "conditions.0.values",
    ],
    [
      "bad date",
      () =>
        withCond(
          cond({
            attribute_key: "created_at",
            filter_operator: "is_greater_than",
            values: ["2024-13-45"],
          }),
        ),
      "conditions.0.values",
    ],
    [
      "days_before out of range",
      () =>
        withCond(
          cond({ attribute_key: "created_at", filter_operator: "days_before", values: ["0"] }),
        ),
      "conditions.0.values",
    ],
    [
      "bad boolean",
      () => withCond(cond({ attribute_key: "blocked", values: ["maybe"] })),
      "conditions.0.values",
    ],
    [
      "missing query_operator mid-chain",
      () => withCond(cond({}), cond({})),
      "conditions.0.query_operator",
    ],
    [
      "unknown query_operator",
      () => withCond(cond({ query_operator: "xor" }), cond({})),
      "conditions.0.query_operator",
    ],
    [
      "query_operator on the last",
      () => withCond(cond({ query_operator: "and" }), cond({ query_operator: "or" })),
      "conditions.1.query_operator",
    ],
    ["unknown action", () => withAct(act("add_sla", [1])), "actions.0.action_name"],
    [
      "assign_agent of another account",
      (c) => withAct(act("assign_agent", [c.otherUser])),
      "actions.0.action_params",
    ],
    [
      "assign_agent not an id",
      () => withAct(act("assign_agent", ["abc"])),
      "actions.0.action_params",
    ],
    [
      "assign_agent without params",
      () => withAct(act("assign_agent", [])),
      "actions.0.action_params",
    ],
    [
      "assign_team of another account",
      (c) => withAct(act("assign_team", [c.otherTeam])),
      "actions.0.action_params",
    ],
    ["add_label without labels", () => withAct(act("add_label", [])), "actions.0.action_params"],
    ["remove_label blank", () => withAct(act("remove_label", [""])), "actions.0.action_params"],
    [
      "send_message without text",
      () => withAct(act("send_message", [])),
      "actions.0.action_params",
    ],
    [
      "add_private_note blank",
      () => withAct(act("add_private_note", ["  "])),
      "actions.0.action_params",
    ],
    [
      "change_status unknown",
      () => withAct(act("change_status", ["closed"])),
      "actions.0.action_params",
    ],
    [
      "change_priority unknown",
      () => withAct(act("change_priority", ["critical"])),
      "actions.0.action_params",
    ],
    [
      "webhook to a private address",
      () => withAct(act("send_webhook_event", ["http://10.1.2.3/hook"])),
      "actions.0.action_params",
    ],
    [
      "webhook to loopback",
      () => withAct(act("send_webhook_event", ["http://127.0.0.1:8080/"])),
      "actions.0.action_params",
    ],
    [
      "webhook to localhost",
      () => withAct(act("send_webhook_event", ["http://localhost/"])),
      "actions.0.action_params",
    ],
    [
      "webhook to link-local",
      () => withAct(act("send_webhook_event", ["http://169.254.169.254/"])),
      "actions.0.action_params",
    ],
    [
      "webhook to IPv6 loopback",
      () => withAct(act("send_webhook_event", ["http://[::1]/"])),
      "actions.0.action_params",
    ],
    [
      "webhook not http",
      () => withAct(act("send_webhook_event", ["ftp://example.com/"])),
      "actions.0.action_params",
    ],
    [
      "webhook not a URL",
      () => withAct(act("send_webhook_event", ["hooks"])),
      "actions.0.action_params",
    ],
    [
      "email to another account's team",
      (c) => withAct(act("send_email_to_team", [{ team_ids: [c.otherTeam], message: "m" }])),
      "actions.0.action_params",
    ],
    [
      "email to no team",
      () => withAct(act("send_email_to_team", [{ team_ids: [], message: "m" }])),
      "actions.0.action_params",
    ],
    [
      "email to team without message",
      (c) => withAct(act("send_email_to_team", [{ team_ids: [c.team], message: "" }])),
      "actions.0.action_params",
    ],
    [
      "transcript to a non-email",
      () => withAct(act("send_email_transcript", ["someone"])),
      "actions.0.action_params",
    ],
    [
      "attachment of another account",
      (c) => withAct(act("send_attachment", [c.otherAttachment])),
      "actions.0.action_params",
    ],
    [
      "attachment not an id",
      () => withAct(act("send_attachment", ["x"])),
      "actions.0.action_params",
    ],
  ];

  it.each(cases)("%s", async (_name, build, path) => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const ctx: Ctx = {
      team: (await createTeam(account.id)).id,
      otherTeam: (await createTeam(other.account.id)).id,
      otherUser: other.agent.id,
      otherAttachment: (await createAttachment(other.account.id, other.inbox.id)).id,
    };
    const res = await api(rules(account.id), {
      method: "POST",
      token: admin.token,
      body: build(ctx),
    });
    const error = expectError(res, 422, "validation_failed");
    expect(error.details.map((d) => d.path)).toContain(path);
    expect(await rulesOf(account.id)).toEqual([]);
  });

  it("lists every problem at once", async () => {
    const { account, admin } = await createWorld();
    const res = await api(rules(account.id), {
      method: "POST",
      token: admin.token,
      body: withAct(act("nope", []), act("change_status", ["x"])),
    });
    const error = expectError(res, 422);
    expect(error.details.map((d) => d.path)).toEqual([
      "actions.0.action_name",
      "actions.1.action_params",
    ]);
  });

  it("refuses a custom attribute key defined only in another account", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    await defineAttribute(other.account.id, "plan", "conversation_attribute");
    const res = await api(rules(account.id), {
      method: "POST",
      token: admin.token,
      body: withCond(cond({ attribute_key: "plan", values: ["pro"] })),
    });
    expect(expectError(res, 422).details[0]?.path).toBe("conditions.0.attribute_key");
  });
});
