import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgent, createInbox, createWorld } from "../../support/factories";
import { addContactInbox, createContact, tagContact } from "../../support/factories-contacts";
import { createConversation, insertMessage } from "../../support/factories-conversations";
import { outboxRows } from "../../support/factories-webhooks";
import { api, expectError } from "../../support/http";

const mergeUrl = (accountId: number) => `/api/v1/accounts/${accountId}/actions/contact_merge`;

/**
 * Every row anywhere that points at `contactId`: each table with a foreign key to contacts
 * (read from SQLite's own schema, so a table added later is covered) and messages sent by it.
 */
async function rowsReferencing(contactId: number): Promise<Record<string, number>> {
  const tables = (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
    ).all<{ name: string }>()
  ).results.map((r) => r.name);
  const found: Record<string, number> = {};
  for (const table of tables) {
    const fks = (
      await env.DB.prepare(`SELECT "from", "table" FROM pragma_foreign_key_list('${table}')`).all<{
        from: string;
        table: string;
      }>()
    ).results.filter((fk) => fk.table === "contacts");
    for (const fk of fks) {
      const row = await env.DB.prepare(
        `SELECT COUNT(*) AS n FROM "${table}" WHERE "${fk.from}" = ?`,
      )
        .bind(contactId)
        .first<{ n: number }>();
      if (row && row.n > 0) {
        found[`${table}.${fk.from}`] = row.n;
      }
    }
  }
  const sent = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM messages WHERE sender_type = 'Contact' AND sender_id = ?",
  )
    .bind(contactId)
    .first<{ n: number }>();
  if (sent && sent.n > 0) {
    found["messages.sender_id"] = sent.n;
  }
  const contact = await env.DB.prepare("SELECT COUNT(*) AS n FROM contacts WHERE id = ?")
    .bind(contactId)
    .first<{ n: number }>();
  if (contact && contact.n > 0) {
    found.contacts = contact.n;
  }
  return found;
}

async function twoContacts() {
  const world = await createWorld();
  const { account, inbox } = world;
  const base = await createContact(account.id, {
    name: "Ada",
    email: null,
    phoneNumber: "+15550001",
    customAttributes: { plan: "gold" },
  });
  const mergee = await createContact(account.id, {
    name: "Ada L.",
    email: "ada@example.com",
    identifier: "ada-42",
    customAttributes: { plan: "free", seats: 3 },
    additionalAttributes: { city: "London" },
  });
  await tagContact(base.id, ["vip"]);
  await tagContact(mergee.id, ["vip", "billing"]);
  const baseConversation = await createConversation(account.id, inbox.id, { contactId: base.id });
  const mergeeConversations = [
    await createConversation(account.id, inbox.id, { contactId: mergee.id }),
    await createConversation(account.id, inbox.id, { contactId: mergee.id }),
  ];
  for (const conversation of mergeeConversations) {
    await insertMessage(conversation, { senderType: "Contact", senderId: mergee.id });
  }
  await api(`/api/v1/accounts/${account.id}/contacts/${mergee.id}/notes`, {
    method: "POST",
    token: world.admin.token,
    body: { content: "Mergee's note" },
  });
  return { ...world, base, mergee, baseConversation, mergeeConversations };
}

describe("POST /api/v1/accounts/{account_id}/actions/contact_merge", () => {
  it("moves everything of the mergee's to the base, merges attributes (base wins), removes the mergee", async () => {
    const w = await twoContacts();
    const before = await outboxRows(w.account.id);
    const res = await api(mergeUrl(w.account.id), {
      method: "POST",
      token: w.agent.token,
      body: { base_contact_id: w.base.id, mergee_contact_id: w.mergee.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.base.id,
      name: "Ada",
      email: "ada@example.com",
      phone_number: "+15550001",
      identifier: "ada-42",
      custom_attributes: { plan: "gold", seats: 3 },
    });
    expect(res.body.additional_attributes).toMatchObject({ city: "London" });

    expect(await rowsReferencing(w.mergee.id)).toEqual({});
    const onBase = await rowsReferencing(w.base.id);
    expect(onBase).toMatchObject({
      contacts: 1,
      "conversations.contact_id": 3,
      "contact_labels.contact_id": 2,
      "contact_notes.contact_id": 1,
      "messages.sender_id": 2,
    });
    // Every conversation is on the survivor, as the API lists them.
    const listed = await api(
      `/api/v1/accounts/${w.account.id}/contacts/${w.base.id}/conversations`,
      {
        token: w.admin.token,
      },
    );
    expect(listed.body.payload).toHaveLength(3);
    const labels = await api(`/api/v1/accounts/${w.account.id}/contacts/${w.base.id}/labels`, {
      token: w.admin.token,
    });
    expect(labels.body.payload).toEqual(["billing", "vip"]);

    const events = (await outboxRows(w.account.id)).filter((r) => r.id > (before.at(-1)?.id ?? 0));
    expect(events.map((e) => e.name)).toEqual(["contact_updated"]);
    expect(events[0]?.payload).toMatchObject({ contact_id: w.base.id });
    expectError(
      await api(`/api/v1/accounts/${w.account.id}/contacts/${w.mergee.id}`, {
        token: w.admin.token,
      }),
      404,
    );
  });

  it("moves the mergee's contact inboxes: its widget session now belongs to the base", async () => {
    const { account, admin, inbox } = await createWorld();
    const base = await createContact(account.id);
    const mergee = await createContact(account.id);
    const ci = await addContactInbox(mergee.id, inbox.id);
    await api(mergeUrl(account.id), {
      method: "POST",
      token: admin.token,
      body: { base_contact_id: base.id, mergee_contact_id: mergee.id },
    });
    const row = await env.DB.prepare("SELECT contact_id FROM contact_inboxes WHERE id = ?")
      .bind(ci.id)
      .first<{ contact_id: number }>();
    expect(row?.contact_id).toBe(base.id);
  });

  it("is all or nothing: a failure at the last step leaves both contacts and every row as they were", async () => {
    const w = await twoContacts();
    const snapshot = async () => ({
      base: await rowsReferencing(w.base.id),
      mergee: await rowsReferencing(w.mergee.id),
    });
    const before = await snapshot();
    // A fault injected into the batch: removing the mergee fails after everything moved.
    const trigger = `merge_fault_${w.mergee.id}`;
    await env.DB.exec(
      `CREATE TRIGGER ${trigger} BEFORE DELETE ON contacts WHEN OLD.id = ${w.mergee.id} BEGIN SELECT RAISE(ABORT, 'injected'); END`,
    );
    try {
      const res = await api(mergeUrl(w.account.id), {
        method: "POST",
        token: w.admin.token,
        body: { base_contact_id: w.base.id, mergee_contact_id: w.mergee.id },
      });
      expectError(res, 500);
    } finally {
      await env.DB.exec(`DROP TRIGGER ${trigger}`);
    }
    expect(await snapshot()).toEqual(before);
    expect(before.mergee).toMatchObject({ contacts: 1, "conversations.contact_id": 2 });
  });

  it("refuses the same contact twice, another account's contact and bad ids, changing nothing", async () => {
    const w = await twoContacts();
    const other = await createWorld();
    const foreign = await createContact(other.account.id);
    const cases: [unknown, number][] = [
      [{ base_contact_id: w.base.id, mergee_contact_id: w.base.id }, 422],
      [{ base_contact_id: w.base.id, mergee_contact_id: foreign.id }, 404],
      [{ base_contact_id: foreign.id, mergee_contact_id: w.mergee.id }, 404],
      [{ base_contact_id: w.base.id }, 422],
      [{ base_contact_id: "1; DROP TABLE contacts", mergee_contact_id: w.mergee.id }, 422],
      [{ base_contact_id: w.base.id, mergee_contact_id: -1 }, 422],
    ];
    for (const [body, status] of cases) {
      expectError(
        await api(mergeUrl(w.account.id), { method: "POST", token: w.admin.token, body }),
        status,
      );
    }
    expect(await rowsReferencing(w.mergee.id)).toMatchObject({ contacts: 1 });
    expect(await rowsReferencing(foreign.id)).toMatchObject({ contacts: 1 });
  });

  it("refuses a merge whose attributes would pass the JSON bounds (422 naming the field), moving nothing", async () => {
    const w = await twoContacts();
    // 150 keys each: within the 200-key bound alone, 300 once merged.
    const keys = (prefix: string) =>
      Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`${prefix}${i}`, i]));
    for (const [field, column] of [
      ["custom_attributes", "custom_attributes"],
      ["additional_attributes", "additional_attributes"],
    ] as const) {
      const base = await createContact(w.account.id, { [camel(field)]: keys("a") });
      const mergee = await createContact(w.account.id, { [camel(field)]: keys("b") });
      await createConversation(w.account.id, w.inbox.id, { contactId: mergee.id });
      const before = await rowsReferencing(mergee.id);
      const res = await api(mergeUrl(w.account.id), {
        method: "POST",
        token: w.admin.token,
        body: { base_contact_id: base.id, mergee_contact_id: mergee.id },
      });
      expect(expectError(res, 422).error).toContain(field);
      expect(await rowsReferencing(mergee.id)).toEqual(before);
      const stored = await env.DB.prepare(`SELECT ${column} AS v FROM contacts WHERE id = ?`)
        .bind(base.id)
        .first<{ v: string }>();
      expect(Object.keys(JSON.parse(stored?.v ?? "{}"))).toHaveLength(150);
    }
  });
});

const camel = (field: "custom_attributes" | "additional_attributes") =>
  field === "custom_attributes" ? "customAttributes" : "additionalAttributes";

describe("GET /api/v1/accounts/{account_id}/contacts/{id}/contactable_inboxes", () => {
  it("lists the caller's inboxes that can reach the contact with the source id to use", async () => {
    const { account, admin, inbox } = await createWorld();
    const widget = await createInbox(account.id, { channelType: "Channel::WebWidget" });
    const other = await createInbox(account.id);
    const contact = await createContact(account.id);
    const existing = await addContactInbox(contact.id, inbox.id, "known-source");
    const url = `/api/v1/accounts/${account.id}/contacts/${contact.id}/contactable_inboxes`;
    const res = await api(url, { token: admin.token });
    expect(res.status).toBe(200);
    const byInbox = new Map(
      res.body.payload.map((p: { inbox: { id: number }; source_id: string }) => [
        p.inbox.id,
        p.source_id,
      ]),
    );
    expect(byInbox.get(inbox.id)).toBe(existing.sourceId);
    expect(byInbox.get(other.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(byInbox.has(widget.id)).toBe(false); // a widget has no contact inbox to reach it by

    // An agent sees only the inboxes they work in.
    const agent = await createAgent(account.id);
    await addInboxMember(other.id, agent.id);
    const mine = await api(url, { token: agent.token });
    expect(mine.body.payload.map((p: { inbox: { id: number } }) => p.inbox.id)).toEqual([other.id]);
  });
});

describeAuthMatrix("POST actions/contact_merge", {
  method: "POST",
  path: (w) => mergeUrl(w.account.id),
  body: { base_contact_id: 1, mergee_contact_id: 2 },
});
describeAuthMatrix("GET contacts/{id}/contactable_inboxes", {
  method: "GET",
  path: async (w) =>
    `/api/v1/accounts/${w.account.id}/contacts/${(await createContact(w.account.id)).id}/contactable_inboxes`,
});
