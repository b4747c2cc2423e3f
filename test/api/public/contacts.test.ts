import { describe, expect, it } from "vitest";
import { createInbox } from "../../support/factories";
import { createContact, createDefinition, tagContact } from "../../support/factories-contacts";
import {
  contactInboxRow,
  createPublicContact,
  createPublicWorld,
  identifierHash,
  pub,
} from "../../support/factories-public";
import { expectError } from "../../support/http";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describe("POST /contacts", () => {
  it("creates an anonymous contact with no body, with a session and a pubsub token", async () => {
    const w = await createPublicWorld();
    const res = await pub(`${w.base}/contacts`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      account_id: w.account.id,
      company_id: null,
      name: "",
      email: null,
      phone_number: null,
      identifier: null,
      contact_type: "visitor",
      country_code: null,
      last_activity_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      last_name: null,
      middle_name: null,
      location: null,
      blocked: false,
      additional_attributes: {},
      custom_attributes: {},
      label_list: [],
      source_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      pubsub_token: expect.stringMatching(/^\w{24}$/),
    });
    const row = await contactInboxRow(res.body.source_id);
    expect(row).toMatchObject({ inboxId: w.inbox.id, contactId: res.body.id, hmacVerified: false });
    expect(row?.pubsubToken).toBe(res.body.pubsub_token);
  });

  it("stores the visitor's fields and validated custom attributes", async () => {
    const w = await createPublicWorld();
    const plan = await createDefinition(w.account.id, { attributeDisplayType: "number" });
    const res = await pub(`${w.base}/contacts`, {
      method: "POST",
      body: {
        name: "Alice",
        email: "Alice@Example.com",
        phone_number: "+14155552671",
        avatar_url: "https://example.com/a.png",
        custom_attributes: { [plan.attributeKey]: "42" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Alice",
      email: "alice@example.com",
      phone_number: "+14155552671",
      custom_attributes: { [plan.attributeKey]: 42 },
    });
    const again = await pub(`${w.base}/contacts/${res.body.source_id}`);
    expect(again.body).toEqual(res.body);
  });

  it("rejects bad input with 422 and creates nothing", async () => {
    const w = await createPublicWorld();
    const bad = [
      { email: "nope" },
      { phone_number: "0123" },
      { name: 5 },
      { custom_attributes: { undefined_key: "x" } },
      { custom_attributes: "x" },
    ];
    for (const body of bad) {
      expectError(await pub(`${w.base}/contacts`, { method: "POST", body }), 422);
    }
    expectError(await pub(`${w.base}/contacts`, { method: "POST", raw: "{oops" }), 400);
  });

  it("reuses the account's contact an identifier names (Chatwoot parity), in a new session", async () => {
    const w = await createPublicWorld();
    const known = await createContact(w.account.id, { identifier: "user-77", name: "Known" });
    await tagContact(known.id, ["vip"]);
    const res = await createPublicContact(w.base, { identifier: "user-77", name: "Other" });
    expect(res.id).toBe(known.id);
    // Unverified, the session sees what it sent, not the contact (identity-join.test.ts).
    expect(res.name).toBe("Other");
    expect(res.label_list).toEqual([]);
    const second = await createPublicContact(w.base, { identifier: "user-77" });
    expect(second.id).toBe(known.id);
    expect(second.source_id).not.toBe(res.source_id);
  });
});

describe("identity verification (HMAC)", () => {
  async function mandatory() {
    return createPublicWorld({ hmacMandatory: true });
  }

  it("verifies a correct identifier_hash and marks the session verified", async () => {
    const w = await mandatory();
    const hash = await identifierHash(w.inbox.hmacToken, "user-1");
    const res = await createPublicContact(w.base, { identifier: "user-1", identifier_hash: hash });
    expect(res.identifier).toBe("user-1");
    expect((await contactInboxRow(res.source_id))?.hmacVerified).toBe(true);
    const upper = await createPublicContact(w.base, {
      identifier: "user-1",
      identifier_hash: hash.toUpperCase(),
    });
    expect(upper.id).toBe(res.id);
  });

  it("refuses an identifier without a hash, or with an empty one, when mandatory", async () => {
    const w = await mandatory();
    for (const body of [{ identifier: "user-2" }, { identifier: "user-2", identifier_hash: "" }]) {
      const res = await pub(`${w.base}/contacts`, { method: "POST", body });
      const error = expectError(res, 401, "unauthorized");
      expect(error.error).toBe("HMAC failed: Invalid Identifier Hash Provided");
    }
    // An anonymous visitor (no identifier) needs no hash.
    expect((await pub(`${w.base}/contacts`, { method: "POST", body: {} })).status).toBe(200);
  });

  it("refuses a wrong hash, mandatory or not, and a hash made with another inbox's secret", async () => {
    for (const hmacMandatory of [true, false]) {
      const w = await createPublicWorld({ hmacMandatory });
      const other = await createInbox(w.account.id);
      const wrong = [
        "0".repeat(64),
        "abc",
        await identifierHash(other.hmacToken, "user-3"),
        await identifierHash(w.inbox.hmacToken, "user-4"),
      ];
      for (const identifier_hash of wrong) {
        const res = await pub(`${w.base}/contacts`, {
          method: "POST",
          body: { identifier: "user-3", identifier_hash },
        });
        expectError(res, 401, "unauthorized");
      }
    }
  });

  it("treats an empty hash as absent when not mandatory", async () => {
    const w = await createPublicWorld();
    const res = await createPublicContact(w.base, { identifier: "user-5", identifier_hash: "" });
    expect(res.identifier).toBe("user-5");
    expect((await contactInboxRow(res.source_id))?.hmacVerified).toBe(false);
  });

  it("verifies an optional hash when one is given", async () => {
    const w = await createPublicWorld();
    const hash = await identifierHash(w.inbox.hmacToken, "user-6");
    const res = await createPublicContact(w.base, { identifier: "user-6", identifier_hash: hash });
    expect((await contactInboxRow(res.source_id))?.hmacVerified).toBe(true);
  });
});

describe("GET and PATCH /contacts/{contact_identifier}", () => {
  it("shows the session's contact", async () => {
    const w = await createPublicWorld();
    const created = await createPublicContact(w.base, { name: "Bo" });
    const res = await pub(`${w.base}/contacts/${created.source_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it("updates the visitor's fields and merges custom attributes", async () => {
    const w = await createPublicWorld();
    const a = await createDefinition(w.account.id);
    const b = await createDefinition(w.account.id);
    const created = await createPublicContact(w.base, {
      custom_attributes: { [a.attributeKey]: "x" },
    });
    const path = `${w.base}/contacts/${created.source_id}`;
    const res = await pub(path, {
      method: "PATCH",
      body: {
        name: "Cleo",
        email: "cleo@example.com",
        custom_attributes: { [b.attributeKey]: "y" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      name: "Cleo",
      email: "cleo@example.com",
      custom_attributes: { [a.attributeKey]: "x", [b.attributeKey]: "y" },
      source_id: created.source_id,
      pubsub_token: created.pubsub_token,
    });
    expect((await pub(path)).body.name).toBe("Cleo");
  });

  it("rejects bad updates with 422 and leaves the contact alone", async () => {
    const w = await createPublicWorld();
    const created = await createPublicContact(w.base, { name: "Dana" });
    const path = `${w.base}/contacts/${created.source_id}`;
    const taken = await createContact(w.account.id, { identifier: "taken-id" });
    for (const body of [
      { email: "bad" },
      { custom_attributes: { nope: 1 } },
      { identifier: taken.identifier },
    ]) {
      expectError(await pub(path, { method: "PATCH", body }), 422);
    }
    expect((await pub(path)).body).toEqual(created);
  });

  it("applies the HMAC rules when the identifier changes", async () => {
    const w = await createPublicWorld({ hmacMandatory: true });
    const created = await createPublicContact(w.base, { name: "Eve" });
    const path = `${w.base}/contacts/${created.source_id}`;
    expectError(await pub(path, { method: "PATCH", body: { identifier: "eve-1" } }), 401);
    const wrong = { identifier: "eve-1", identifier_hash: "f".repeat(64) };
    expectError(await pub(path, { method: "PATCH", body: wrong }), 401);
    expect((await pub(path)).body.identifier).toBeNull();
    // Other fields need no hash.
    expect((await pub(path, { method: "PATCH", body: { name: "Eva" } })).status).toBe(200);
    const hash = await identifierHash(w.inbox.hmacToken, "eve-1");
    const ok = await pub(path, {
      method: "PATCH",
      body: { identifier: "eve-1", identifier_hash: hash },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.identifier).toBe("eve-1");
    expect((await contactInboxRow(created.source_id))?.hmacVerified).toBe(true);
  });

  it("answers 404 for an unknown source_id and for one of another inbox", async () => {
    const w = await createPublicWorld();
    const other = await createInbox(w.account.id);
    const elsewhere = await createPublicContact(other.inboxIdentifier);
    expectError(await pub(`${w.base}/contacts/not-a-source-id`), 404, "not_found");
    expectError(await pub(`${w.base}/contacts/${elsewhere.source_id}`), 404, "not_found");
    const patch = { method: "PATCH", body: { name: "x" } };
    expectError(await pub(`${w.base}/contacts/${elsewhere.source_id}`, patch), 404, "not_found");
    expect((await pub(`${other.inboxIdentifier}/contacts/${elsewhere.source_id}`)).status).toBe(
      200,
    );
  });
});
