import { describe, expect, it } from "vitest";
import { createContact } from "../support/factories-contacts";
import { createPublicConversationRow, createPublicWorld } from "../support/factories-public";
import { api } from "../support/http";
import { answer, stored } from "../support/room-log";
import { openSocket, settle } from "../support/ws";

/**
 * A visitor's contact merged into another while their socket is open: the socket is the
 * session's (its source_id), which the merge moved to the base contact, so it goes on sending,
 * as the public API's HTTP calls do. Before, the room resolved the sender by the contact the
 * socket opened as, which the merge deleted: every message was refused until a reconnect.
 */
describe("a visitor's socket across a merge of their contact", () => {
  it("goes on sending as the base contact", { timeout: 90_000 }, async () => {
    const w = await createPublicWorld();
    const { contact, path, row } = await createPublicConversationRow(w.base);
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    await visitor.next("ready");
    visitor.send({ type: "message.create", echo_id: "m0", content: "before the merge" });
    expect((await answer(visitor, "m0")).event).toBe("ack");

    const base = await createContact(w.account.id);
    const account = `/api/v1/accounts/${w.account.id}`;
    const merged = await api(`${account}/actions/contact_merge`, {
      method: "POST",
      token: w.admin.token,
      body: { base_contact_id: base.id, mergee_contact_id: contact.id },
    });
    expect(merged.status).toBe(200);
    // A change of the conversation: the room reads its row (now the base contact's) again.
    const resolved = await api(`${account}/conversations/${row.displayId}/toggle_status`, {
      method: "POST",
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect(resolved.status).toBe(200);

    // The sender the room kept from before the merge may cost one refusal; then it is read again.
    const answers: string[] = [];
    for (const echo of ["m1", "m2", "m3"]) {
      visitor.send({ type: "message.create", echo_id: echo, content: `after the merge ${echo}` });
      answers.push((await answer(visitor, echo)).event);
    }
    expect(answers.filter((a) => a === "error").length).toBeLessThanOrEqual(1);
    expect(answers.slice(1)).toEqual(["ack", "ack"]);

    const acked = answers.filter((a) => a === "ack").length;
    // Every message of the visitor's is the base contact's, the one before the merge moved by it
    // (the resolve and the reopen add activity messages of their own).
    const theirs = async () =>
      (await stored(row.id)).filter((m) => m.content?.includes("the merge"));
    for (let i = 0; i < 300 && (await theirs()).length < 1 + acked; i++) {
      await settle(100);
    }
    const rows = await theirs();
    expect(rows.length).toBe(1 + acked);
    expect(rows.every((m) => m.senderType === "Contact" && m.senderId === base.id)).toBe(true);
    visitor.close();
  });
});
