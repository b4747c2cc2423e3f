import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld } from "../../support/factories";
import { api, expectError } from "../../support/http";

describe("audit logs", () => {
  it("records an administrator's inbox change (who, what, when, from where), newest first", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const base = `/api/v1/accounts/${account.id}`;
    const patched = await api(`${base}/inboxes/${inbox.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: "Renamed inbox", greeting_enabled: true },
      headers: { "cf-connecting-ip": "203.0.113.7" },
    });
    expect(patched.status).toBe(200);
    // A change that changes nothing is not logged.
    await api(`${base}/inboxes/${inbox.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: "Renamed inbox" },
    });
    const res = await api(`${base}/audit_logs`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ per_page: 15, total_entries: 1, current_page: 1 });
    expect(res.body.audit_logs[0]).toMatchObject({
      auditable_type: "Inbox",
      auditable_id: inbox.id,
      associated_id: account.id,
      action: "update",
      user_id: admin.id,
      username: admin.email,
      remote_address: "203.0.113.7",
      audited_changes: { name: [inbox.name, "Renamed inbox"] },
      created_at: expect.any(Number),
    });
    expectError(await api(`${base}/audit_logs`, { token: agent.token }), 403);
    const other = await createWorld();
    const theirs = await api(`/api/v1/accounts/${other.account.id}/audit_logs`, {
      token: other.admin.token,
    });
    expect(theirs.body.audit_logs).toEqual([]);
  });
});

describeAuthMatrix("GET audit_logs", {
  method: "GET",
  path: (w) => `/api/v1/accounts/${w.account.id}/audit_logs`,
  adminOnly: true,
});
