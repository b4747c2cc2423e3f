import { describe, expect, it } from "vitest";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import {
  attemptOpenDeliveries,
  createWebhook,
  outboxRows,
  processEvents,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";
import { openSocket, settle } from "../support/ws";

describe("a visitor's message on a resolved conversation", () => {
  it("reaches the agents' room, the account feed and the webhook as one status change", async () => {
    const w = await createPublicWorld();
    await createWebhook(w.admin.token, w.account.id, {
      url: "https://reopen.example.com/hook",
      subscriptions: ["conversation_status_changed"],
    });
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const resolved = await api(`${base}/toggle_status`, {
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect(resolved.status).toBe(200);
    const after = (await outboxRows(w.account.id)).at(-1)?.id ?? 0;
    const room = await openSocket(`${base}/live`, { api_access_token: w.admin.token });
    const feed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.admin.token,
    });
    await Promise.all([room.next("ready"), feed.next("ready")]);

    const sent = await pub(`${path}/messages`, {
      method: "POST",
      body: { content: "still there?" },
    });
    expect(sent.status).toBe(200);

    const inRoom = await room.next("conversation.status_changed");
    expect(inRoom.data).toMatchObject({ id: conversation.id, status: "open" });
    expect(inRoom.data.previous_status).toBe("resolved");
    const inFeed = await feed.next("conversation.status_changed");
    expect(inFeed.data).toMatchObject({ id: conversation.id, status: "open" });
    await settle();
    expect(room.all("conversation.status_changed")).toHaveLength(1);
    expect(feed.all("conversation.status_changed")).toHaveLength(1);

    const rec = recordingOutbound();
    await processEvents(w.account.id, after, { outbound: rec.outbound });
    await attemptOpenDeliveries(w.account.id, { outbound: rec.outbound });
    const changes = rec.requests.filter((r) => r.json.event === "conversation_status_changed");
    expect(changes).toHaveLength(1);
    expect(changes[0]?.json).toMatchObject({ id: conversation.id, status: "open" });
    room.close();
    feed.close();
  });
});
