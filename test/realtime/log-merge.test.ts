import { describe, expect, it } from "vitest";
import { createContact } from "../support/factories-contacts";
import { createPublicConversationRow, createPublicWorld } from "../support/factories-public";
import { api } from "../support/http";
import { failInserts, stored, untilStored } from "../support/room-log";
import { openSocket } from "../support/ws";

/**
 * A contact merged while its messages are still in a room's log (docs/realtime.md, "Write
 * path"): they reach D1 under the contact it was merged into, as the merge moved those already
 * in D1.
 */
describe("a contact merge while the room's log holds the contact's messages", () => {
  it("writes the logged messages under the base contact", { timeout: 60_000 }, async () => {
    const w = await createPublicWorld();
    const { contact, path, row } = await createPublicConversationRow(w.base);
    const base = await createContact(w.account.id);
    const marker = `held${row.id}`;
    const heal = await failInserts(marker);
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    await visitor.next("ready");
    visitor.send({ type: "message.create", echo_id: "in1", content: `${marker} from the visitor` });
    const ack = await visitor.next("ack", 15_000);
    expect(ack.data.duplicate).toBe(false);
    // Only in the room's log yet.
    expect(await stored(row.id)).toEqual([]);
    const merged = await api(`/api/v1/accounts/${w.account.id}/actions/contact_merge`, {
      method: "POST",
      token: w.admin.token,
      body: { base_contact_id: base.id, mergee_contact_id: contact.id },
    });
    expect(merged.status).toBe(200);
    await heal();
    const [message] = await untilStored(row.id, 1);
    expect(message).toMatchObject({ id: ack.data.id, senderType: "Contact", senderId: base.id });
    // The account API shows it with the base contact as sender.
    const listed = await api(
      `/api/v1/accounts/${w.account.id}/conversations/${row.displayId}/messages`,
      { token: w.admin.token },
    );
    const shown = (listed.body as { payload: { id: number; sender?: { id: number } }[] }).payload;
    expect(shown.find((m) => m.id === ack.data.id)?.sender?.id).toBe(base.id);
    visitor.close();
  });
});
