import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { loadMessageExtras, loadSenders } from "../../worker/modules/messages/senders";
import { createWorld, db } from "../support/factories";
import { createConversation, insertMessage } from "../support/factories-conversations";

describe("loadMessageExtras", () => {
  it("loads every kind of sender and the attachments of many messages together", async () => {
    const w = await createWorld();
    const conversation = await createConversation(w.account.id, w.inbox.id);
    const fromUser = await insertMessage(conversation, {
      senderType: "User",
      senderId: w.admin.id,
    });
    const fromContact = await insertMessage(conversation, {
      senderType: "Contact",
      senderId: conversation.contactId,
    });
    const fromBot = await insertMessage(conversation, {
      senderType: "AgentBot",
      senderId: w.bot.id,
    });
    const activity = await insertMessage(conversation, { senderType: null, senderId: null });
    await db()
      .insert(t.attachments)
      .values(
        [fromContact, fromContact, fromBot].map((m, i) => ({
          accountId: w.account.id,
          messageId: m.id,
          fileType: "file" as const,
          storageKey: `k/${m.id}/${i}`,
          fileName: `f${i}.txt`,
          contentType: "text/plain",
          fileSize: 1,
        })),
      );
    const { senders, files } = await loadMessageExtras(db(), [
      fromUser,
      fromContact,
      fromBot,
      activity,
    ]);
    expect(senders.get(`User:${w.admin.id}`)).toMatchObject({ id: w.admin.id, type: "user" });
    expect(senders.get(`Contact:${conversation.contactId}`)).toMatchObject({ type: "contact" });
    expect(senders.get(`AgentBot:${w.bot.id}`)).toMatchObject({ id: w.bot.id, type: "agent_bot" });
    expect(senders.size).toBe(3);
    expect(files.get(fromContact.id)?.map((a) => a.fileName)).toEqual(["f0.txt", "f1.txt"]);
    expect(files.get(fromBot.id)).toHaveLength(1);
    expect(files.has(fromUser.id)).toBe(false);
  });

  it("answers empty maps without a query for no messages, and skips files when asked", async () => {
    expect(await loadMessageExtras(db(), [])).toEqual({ senders: new Map(), files: new Map() });
    const w = await createWorld();
    const conversation = await createConversation(w.account.id, w.inbox.id);
    const m = await insertMessage(conversation, { senderType: "User", senderId: w.agent.id });
    const senders = await loadSenders(db(), [m]);
    expect([...senders.keys()]).toEqual([`User:${w.agent.id}`]);
  });
});
