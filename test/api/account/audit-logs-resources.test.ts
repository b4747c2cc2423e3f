import { describe, expect, it } from "vitest";
import { hashPassword } from "../../../worker/modules/users/password";
import { addToAccount, createAgent, createUser, createWorld } from "../../support/factories";
import { api } from "../../support/http";

type Entry = {
  auditable_type: string;
  auditable_id: number | null;
  action: string;
  user_id: number | null;
  remote_address: string | null;
  audited_changes: Record<string, unknown>;
};

const IP = { "cf-connecting-ip": "192.0.2.44" };

/** The account's audit log, oldest first, as `type action` plus the entries. */
async function logOf(accountId: number, token: string) {
  const entries: Entry[] = [];
  for (let page = 1; page < 20; page++) {
    const res = await api(`/api/v1/accounts/${accountId}/audit_logs?page=${page}`, { token });
    expect(res.status).toBe(200);
    entries.push(...res.body.audit_logs);
    if (res.body.audit_logs.length < res.body.per_page) {
      break;
    }
  }
  entries.reverse();
  return { lines: entries.map((e) => `${e.auditable_type} ${e.action}`), entries };
}

describe("audit log: the resources Chatwoot audits", () => {
  it("records administrators' changes to rules, teams, members, webhooks, inboxes, agents and the account", async () => {
    const { account, admin, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    const base = `/api/v1/accounts/${account.id}`;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await api(`${base}${path}`, { method, token: admin.token, body, headers: IP });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    };
    const rule = (
      await call("POST", "/automation_rules", {
        name: "Tag billing",
        event_name: "message_created",
        conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["bill"] }],
        actions: [{ action_name: "add_label", action_params: ["billing"] }],
      })
    ).payload;
    await call("PATCH", `/automation_rules/${rule.id}`, { name: "Tag invoices" });
    await call("PATCH", `/automation_rules/${rule.id}`, { name: "Tag invoices" }); // no change
    const copy = (await call("POST", `/automation_rules/${rule.id}/clone`)).payload;
    await call("DELETE", `/automation_rules/${copy.id}`);
    const team = await call("POST", "/teams", { name: "Refunds" });
    await call("PATCH", `/teams/${team.id}`, { description: "Money back" });
    await call("POST", `/teams/${team.id}/team_members`, { user_ids: [agent.id] });
    await call("POST", `/teams/${team.id}/team_members`, { user_ids: [agent.id] }); // already in
    await call("DELETE", `/teams/${team.id}/team_members`, { user_ids: [agent.id] });
    await call("DELETE", `/teams/${team.id}`);
    const hook = (await call("POST", "/webhooks", { url: "https://audit.example.com/hook" }))
      .payload.webhook;
    await call("PATCH", `/webhooks/${hook.id}`, { url: "https://audit.example.com/other" });
    await call("DELETE", `/webhooks/${hook.id}`);
    await call("POST", "/inbox_members", { inbox_id: inbox.id, user_ids: [agent.id] });
    await call("DELETE", "/inbox_members", { inbox_id: inbox.id, user_ids: [agent.id] });
    const made = await call("POST", "/inboxes", { name: "Side door", channel: { type: "api" } });
    await call("DELETE", `/inboxes/${made.id}`);
    await call("PATCH", `/agents/${agent.id}`, { role: "administrator" });
    await call("POST", "/agents", { name: "Newcomer", email: "newcomer-audit@example.com" });
    await call("PATCH", "", { name: "Renamed account" });

    const { lines, entries } = await logOf(account.id, admin.token);
    expect(lines).toEqual([
      "AutomationRule create",
      "AutomationRule update",
      "AutomationRule create",
      "AutomationRule destroy",
      "Team create",
      "Team update",
      "TeamMember create",
      "TeamMember destroy",
      "Team destroy",
      "Webhook create",
      "Webhook update",
      "Webhook destroy",
      "InboxMember create",
      "InboxMember destroy",
      "Inbox create",
      "Inbox destroy",
      "AccountUser update",
      "AccountUser create",
      "Account update",
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({ user_id: admin.id, remote_address: IP["cf-connecting-ip"] });
    }
    const byLine = (line: string) => entries[lines.indexOf(line)] as Entry;
    expect(byLine("AutomationRule create")).toMatchObject({
      auditable_id: rule.id,
      audited_changes: { name: "Tag billing", event_name: "message_created" },
    });
    expect(byLine("AutomationRule update").audited_changes).toEqual({
      name: ["Tag billing", "Tag invoices"],
    });
    expect(byLine("Team create").auditable_id).toBe(team.id);
    expect(byLine("TeamMember create").audited_changes).toEqual({
      team_id: team.id,
      user_id: agent.id,
    });
    expect(byLine("Webhook update").audited_changes).toEqual({
      url: ["https://audit.example.com/hook", "https://audit.example.com/other"],
    });
    // Secrets never reach the log.
    for (const line of ["Webhook create", "Webhook destroy", "Inbox create", "Inbox destroy"]) {
      expect(JSON.stringify(byLine(line).audited_changes)).not.toMatch(/secret|hmac_token/);
    }
    expect(byLine("Inbox create")).toMatchObject({
      auditable_id: made.id,
      audited_changes: { name: "Side door" },
    });
    expect(byLine("AccountUser update").audited_changes).toEqual({
      role: ["agent", "administrator"],
    });
    expect(byLine("AccountUser create").audited_changes).toMatchObject({
      role: "agent",
      inviter_id: admin.id,
      email: "newcomer-audit@example.com",
    });
    expect(byLine("Account update").audited_changes).toMatchObject({
      name: [account.name, "Renamed account"],
    });
    // Another account's log holds none of it.
    const other = await createWorld();
    expect((await logOf(other.account.id, other.admin.token)).entries).toEqual([]);
  });

  it("records each sign-in in every account of the user, and not a failed one", async () => {
    const first = await createWorld();
    const second = await createWorld();
    const user = await createUser({ passwordHash: await hashPassword("right password 1") });
    await addToAccount(first.account.id, user.id, "agent");
    await addToAccount(second.account.id, user.id, "agent");
    const signIn = (password: string) =>
      api("/auth/sign_in", {
        body: { email: user.email, password },
        headers: { "cf-connecting-ip": "203.0.113.99" },
      });
    expect((await signIn("wrong password 1")).status).toBe(401);
    expect((await signIn("right password 1")).status).toBe(200);
    for (const w of [first, second]) {
      const { entries } = await logOf(w.account.id, w.admin.token);
      expect(entries).toEqual([
        expect.objectContaining({
          auditable_type: "User",
          auditable_id: user.id,
          action: "sign_in",
          user_id: user.id,
          remote_address: "203.0.113.99",
        }),
      ]);
    }
  });
});
