import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgent, createWorld } from "../../support/factories";
import { createContact } from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";

async function worldWithFacts() {
  const w = await createWorld();
  const base = `/api/v1/accounts/${w.account.id}`;
  const contact = await createContact(w.account.id);
  const created = await api(`${base}/conversations`, {
    method: "POST",
    token: w.admin.token,
    body: { inbox_id: w.inbox.id, contact_id: contact.id },
  });
  const conversation = `${base}/conversations/${created.body.id}`;
  await api(`${conversation}/assignments`, {
    method: "POST",
    token: w.admin.token,
    body: { assignee_id: w.admin.id },
  });
  await api(`${conversation}/toggle_status`, {
    method: "POST",
    token: w.admin.token,
    body: { status: "resolved" },
  });
  return { ...w, base, conversation, displayId: created.body.id as number };
}

describe("reporting events", () => {
  it("lists the account's facts newest first, filtered and paged, to administrators", async () => {
    const w = await worldWithFacts();
    const res = await api(`${w.base}/reporting_events`, { token: w.admin.token });
    expect(res.status).toBe(200);
    const names = res.body.payload.map((e: { name: string }) => e.name);
    expect(names).toContain("conversation_resolved");
    expect(res.body.meta).toEqual({ count: names.length, current_page: 1, total_pages: 1 });
    expect(res.body.payload[0]).toMatchObject({
      account_id: w.account.id,
      conversation_id: w.displayId,
      inbox_id: w.inbox.id,
    });
    const resolved = await api(`${w.base}/reporting_events?name=conversation_resolved`, {
      token: w.admin.token,
    });
    expect(resolved.body.payload.map((e: { name: string }) => e.name)).toEqual([
      "conversation_resolved",
    ]);
    const none = await api(`${w.base}/reporting_events?since=4102444800`, { token: w.admin.token });
    expect(none.body).toEqual({ meta: { count: 0, current_page: 1, total_pages: 0 }, payload: [] });
    expectError(
      await api(`${w.base}/reporting_events?since=yesterday`, { token: w.admin.token }),
      422,
    );
    expectError(await api(`${w.base}/reporting_events`, { token: w.agent.token }), 403);
  });

  it("lists a conversation's facts oldest first to whoever may see the conversation", async () => {
    const w = await worldWithFacts();
    const member = await createAgent(w.account.id);
    await addInboxMember(w.inbox.id, member.id);
    const res = await api(`${w.conversation}/reporting_events`, { token: member.token });
    expect(res.status).toBe(200);
    const names = res.body.map((e: { name: string }) => e.name);
    expect(names).toContain("conversation_resolved");
    expect(
      res.body.every((e: { conversation_id: number }) => e.conversation_id === w.displayId),
    ).toBe(true);
    const ids = res.body.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expectError(await api(`${w.conversation}/reporting_events`, { token: w.agent.token }), 404);
    const other = await createWorld();
    expect((await api(`${w.base}/reporting_events`, { token: other.admin.token })).status).toBe(
      404,
    );
  });
});

describeAuthMatrix("GET reporting_events", {
  method: "GET",
  path: (w) => `/api/v1/accounts/${w.account.id}/reporting_events`,
  adminOnly: true,
});
