import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "../../worker/events/names";
import { addInboxMember, createAgent, createTeam } from "../support/factories";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import {
  attemptOpenDeliveries,
  createWebhook,
  processEvents,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";
import { openSocket } from "../support/ws";

/** A conversation an admin resolves, reopens, assigns, hands to a team and labels. */
async function workedConversation() {
  const w = await createPublicWorld();
  const hook = await createWebhook(w.admin.token, w.account.id, {
    url: "https://activity-hook.example.com/hook",
    subscriptions: WEBHOOK_EVENTS,
  });
  const agent = await createAgent(w.account.id);
  await addInboxMember(w.inbox.id, agent.id);
  const team = await createTeam(w.account.id, { name: "billing desk" });
  const s = await createPublicConversation(w.base, { name: "Grace" });
  const live = await openSocket(`/public/api/v1/inboxes/${s.path}/live`);
  await pub(`${s.path}/messages`, { method: "POST", body: { content: "hello" } });
  const base = `/api/v1/accounts/${w.account.id}/conversations/${s.conversation.id}`;
  const token = w.admin.token;
  const post = async (action: string, body: unknown) => {
    const res = await api(`${base}/${action}`, { method: "POST", token, body });
    expect(res.status).toBe(200);
  };
  await post("toggle_status", { status: "resolved" });
  await post("toggle_status", { status: "resolved" }); // no change, no note
  await post("toggle_status", { status: "open" });
  await post("toggle_status", { status: "pending" });
  await post("assignments", { assignee_id: agent.id });
  await post("assignments", { assignee_id: w.admin.id });
  await post("assignments", { assignee_id: null });
  await post("assignments", { team_id: team.id });
  await post("assignments", { team_id: null });
  await post("labels", { labels: ["vip", "billing"] });
  await post("labels", { labels: ["vip", "billing"] }); // the same set, no note
  await post("labels", { labels: ["vip", "urgent"] });
  await post("toggle_priority", { priority: "urgent" });
  await post("toggle_priority", { priority: "urgent" }); // the same priority, no note
  const patched = await api(base, { method: "PATCH", token, body: { priority: "low" } });
  expect(patched.status).toBe(200);
  await post("toggle_priority", { priority: null });
  return { w, s, base, agent, team, live, hookUrl: hook.url };
}

const expected = (admin: string, agent: string) => [
  `Conversation was marked resolved by ${admin}`,
  `Conversation was reopened by ${admin}`,
  `Conversation was marked as pending by ${admin}`,
  `Assigned to ${agent} by ${admin}`,
  `${admin} self-assigned this conversation`,
  `Conversation unassigned by ${admin}`,
  `Assigned to billing desk by ${admin}`,
  `Unassigned from billing desk by ${admin}`,
  `${admin} added billing, vip`,
  `${admin} added urgent`,
  `${admin} removed billing`,
  `${admin} set the priority to urgent`,
  `${admin} changed the priority from urgent to low`,
  `${admin} removed the priority`,
];

describe("activity messages (Chatwoot's message_type 2)", () => {
  it("notes each change in Chatwoot's words, in order, in the account API", async () => {
    const { w, base, agent, live } = await workedConversation();
    live.close();
    const res = await api(`${base}/messages`, { token: w.admin.token });
    expect(res.status).toBe(200);
    const activity = res.body.payload.filter((m: { message_type: number }) => m.message_type === 2);
    expect(activity.map((m: { content: string }) => m.content)).toEqual(
      expected(w.admin.name, agent.name),
    );
    for (const m of activity) {
      expect(m).toMatchObject({ private: false, sender_id: null });
    }
  });

  it("reaches the visitor's socket at once, but not the public message list (E20)", async () => {
    const { w, s, agent, live } = await workedConversation();
    const first = await live.next("message.created");
    expect(first.data.content).toBe("hello");
    const notes = [];
    for (let i = 0; i < expected("", "").length; i++) {
      notes.push((await live.next("message.created")).data);
    }
    live.close();
    expect(notes.map((m) => m.content)).toEqual(expected(w.admin.name, agent.name));
    expect(notes.every((m) => m.message_type === 2)).toBe(true);
    const page = await pub(`${s.path}/messages`);
    expect(page.status).toBe(200);
    const types = (page.body as { message_type: number }[]).map((m) => m.message_type);
    expect(types).toEqual([0]);
  });

  it("is not a webhook event (Chatwoot's webhook_sendable? leaves activity out)", async () => {
    const { w, hookUrl, live } = await workedConversation();
    live.close();
    const rec = recordingOutbound();
    await processEvents(w.account.id, 0, { outbound: rec.outbound });
    await attemptOpenDeliveries(w.account.id, { outbound: rec.outbound });
    const toHook = rec.requests.filter((r) => r.url === hookUrl);
    expect(toHook.some((r) => r.json.event === "conversation_status_changed")).toBe(true);
    const created = toHook.filter((r) => r.json.event === "message_created");
    expect(created.map((r) => r.json.content)).toEqual(["hello"]);
  });
});
