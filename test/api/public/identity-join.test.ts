// Issue 20 point 4: joining a contact by an identifier without identity verification (HMAC
// off, the default) keeps Chatwoot's join, but reveals and changes none of the contact's
// personal fields; switching hmac_mandatory on ends such sessions.
import { describe, expect, it } from "vitest";
import { unique } from "../../support/factories";
import {
  createContact,
  createDefinition,
  findContactRow,
  tagContact,
} from "../../support/factories-contacts";
import {
  contactInboxRow,
  createPublicContact,
  createPublicWorld,
  identifierHash,
  pub,
} from "../../support/factories-public";
import { api, expectError } from "../../support/http";
import { type LiveSocket, openSocket } from "../../support/ws";

/** An account's known user: a contact with every personal field set, and a label. */
async function knownUser(accountId: number) {
  const plan = await createDefinition(accountId);
  const identifier = unique("user");
  const contact = await createContact(accountId, {
    identifier,
    name: "Known Person",
    email: `${unique("known").toLowerCase()}@example.com`,
    phoneNumber: "+14155550100",
    location: "Lisbon",
    lastName: "Person",
    countryCode: "PT",
    contactType: "customer",
    additionalAttributes: { company_name: "Acme", city: "Lisbon" },
    customAttributes: { [plan.attributeKey]: "gold" },
  });
  await tagContact(contact.id, ["vip"]);
  return { contact, identifier, plan };
}

/** No value of the contact's personal fields appears anywhere in `body`. */
function expectNothingOf(body: unknown, contact: Awaited<ReturnType<typeof knownUser>>["contact"]) {
  const text = JSON.stringify(body);
  for (const secret of [
    contact.email,
    contact.phoneNumber,
    contact.name,
    "Acme",
    "Lisbon",
    "gold",
    "vip",
    "customer",
  ]) {
    expect(text, `leaks ${secret}`).not.toContain(String(secret));
  }
}

describe("joining by an unverified identifier", () => {
  it("joins the contact but answers only with what the caller sent, then and later", async () => {
    const w = await createPublicWorld();
    const { contact, identifier } = await knownUser(w.account.id);
    const bare = await createPublicContact(w.base, { identifier });
    expect(bare.id).toBe(contact.id);
    expect(bare).toMatchObject({
      identifier,
      name: "",
      email: null,
      phone_number: null,
      label_list: [],
      custom_attributes: {},
      additional_attributes: {},
      contact_type: "visitor",
      location: null,
      last_name: null,
      country_code: null,
    });
    expectNothingOf(bare, contact);
    const sent = {
      identifier,
      name: "Eve",
      email: "eve@evil.example",
      phone_number: "+14155550199",
    };
    const eve = await createPublicContact(w.base, sent);
    expect(eve).toMatchObject({ ...sent, id: contact.id, label_list: [] });
    expectNothingOf(eve, contact);
    const again = await pub(`${w.base}/contacts/${eve.source_id}`);
    expect(again.body).toEqual(eve);
    // The contact itself is untouched.
    expect(await findContactRow(contact.id)).toEqual(contact);
    expect(await contactInboxRow(eve.source_id)).toMatchObject({
      contactId: contact.id,
      joinedByIdentifier: true,
      hmacVerified: false,
    });
  });

  it("never changes the contact through PATCH, and refuses to change its identifier", async () => {
    const w = await createPublicWorld();
    const { contact, identifier, plan } = await knownUser(w.account.id);
    const eve = await createPublicContact(w.base, { identifier });
    const path = `${w.base}/contacts/${eve.source_id}`;
    const change = {
      name: "Mallory",
      email: "mallory@evil.example",
      phone_number: "+14155550123",
      custom_attributes: { [plan.attributeKey]: "stolen" },
    };
    const res = await pub(path, { method: "PATCH", body: change });
    expect(res.status).toBe(200);
    // The session sees what it said (its own claims), the contact keeps its own.
    expect(res.body).toMatchObject({ ...change, id: contact.id, identifier });
    expect((await pub(path)).body).toEqual(res.body);
    expect(await findContactRow(contact.id)).toEqual(contact);
    const rename = await pub(path, { method: "PATCH", body: { identifier: "someone-else" } });
    expectError(rename, 403, "forbidden");
    expect(await findContactRow(contact.id)).toEqual(contact);
  });

  it("keeps conversations going, showing the contact as the session sees it", async () => {
    const w = await createPublicWorld();
    const { contact, identifier } = await knownUser(w.account.id);
    const eve = await createPublicContact(w.base, { identifier, name: "Eve" });
    const base = `${w.base}/contacts/${eve.source_id}/conversations`;
    const created = await pub(base, { method: "POST" });
    expect(created.status).toBe(200);
    expect(created.body.contact).toMatchObject({ id: contact.id, name: "Eve", email: null });
    const sent = await pub(`${base}/${created.body.id}/messages`, {
      method: "POST",
      body: { content: "hello" },
    });
    expect(sent.status).toBe(200);
    const list = await pub(base);
    const messages = await pub(`${base}/${created.body.id}/messages`);
    for (const body of [created.body, sent.body, list.body, messages.body]) {
      expectNothingOf(body, contact);
    }
    // The agents see the conversation under the contact.
    const agentView = await api(
      `/api/v1/accounts/${w.account.id}/conversations/${created.body.id}`,
      { token: w.admin.token },
    );
    expect(agentView.body.meta.sender).toMatchObject({ id: contact.id, email: contact.email });
  });

  it("lifts the restriction once the session proves the identifier", async () => {
    const w = await createPublicWorld();
    const { contact, identifier } = await knownUser(w.account.id);
    const eve = await createPublicContact(w.base, { identifier, name: "Claimed" });
    const path = `${w.base}/contacts/${eve.source_id}`;
    const identifier_hash = await identifierHash(w.inbox.hmacToken, identifier);
    const res = await pub(path, { method: "PATCH", body: { identifier, identifier_hash } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: contact.name,
      email: contact.email,
      phone_number: contact.phoneNumber,
      label_list: ["vip"],
    });
    // And a session verified from the start sees the contact (Chatwoot parity).
    const verified = await createPublicContact(w.base, { identifier, identifier_hash });
    expect(verified).toMatchObject({ id: contact.id, email: contact.email, name: contact.name });
  });
});

describe("switching hmac_mandatory on", () => {
  it("ends unverified identified sessions on HTTP and the live socket; others go on", async () => {
    const w = await createPublicWorld();
    const { identifier } = await knownUser(w.account.id);
    const joined = await createPublicContact(w.base, { identifier });
    const selfIdentified = await createPublicContact(w.base, { identifier: unique("self") });
    const anonymous = await createPublicContact(w.base, { name: "Anon" });
    const identifier_hash = await identifierHash(w.inbox.hmacToken, identifier);
    const verified = await createPublicContact(w.base, { identifier, identifier_hash });
    const conversation = await pub(`${w.base}/contacts/${joined.source_id}/conversations`, {
      method: "POST",
    });
    const on = await api(`/api/v1/accounts/${w.account.id}/inboxes/${w.inbox.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { hmac_mandatory: true },
    });
    expect(on.status).toBe(200);
    for (const ended of [joined, selfIdentified]) {
      const contactPath = `${w.base}/contacts/${ended.source_id}`;
      expectError(await pub(contactPath), 401, "unauthorized");
      expectError(await pub(contactPath, { method: "PATCH", body: { name: "x" } }), 401);
      expectError(await pub(`${contactPath}/conversations`), 401);
      const live = await SELFfetch(`/public/api/v1/live?pubsub_token=${ended.pubsub_token}`);
      expect(live).toBe(401);
    }
    expectError(
      await pub(`${w.base}/contacts/${joined.source_id}/conversations/${conversation.body.id}`),
      401,
    );
    for (const alive of [anonymous, verified]) {
      expect((await pub(`${w.base}/contacts/${alive.source_id}`)).status).toBe(200);
    }
    // Switched off again, the join is back (the sessions were refused, not destroyed).
    await api(`/api/v1/accounts/${w.account.id}/inboxes/${w.inbox.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { hmac_mandatory: false },
    });
    expect((await pub(`${w.base}/contacts/${joined.source_id}`)).status).toBe(200);
  });
});

describe("switching hmac_mandatory on, with visitor sockets open", () => {
  it("closes the ended sessions' sockets at once, and only theirs", async () => {
    const w = await createPublicWorld();
    const { identifier } = await knownUser(w.account.id);
    const joined = await createPublicContact(w.base, { identifier });
    const anonymous = await createPublicContact(w.base, { name: "Anon" });
    const sockets = [];
    for (const s of [joined, anonymous]) {
      const conversation = await pub(`${w.base}/contacts/${s.source_id}/conversations`, {
        method: "POST",
      });
      const socket = await openSocket(
        `/public/api/v1/live?pubsub_token=${s.pubsub_token}&conversation_id=${conversation.body.id}`,
      );
      await socket.next("ready");
      sockets.push(socket);
    }
    const [ended, alive] = sockets as [LiveSocket, LiveSocket];
    const on = await api(`/api/v1/accounts/${w.account.id}/inboxes/${w.inbox.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { hmac_mandatory: true },
    });
    expect(on.status).toBe(200);
    // Closed before the switch's answer left, so well within 2 s of it.
    const closed = await Promise.race([
      ended.closed,
      new Promise((resolve) => setTimeout(() => resolve("still open"), 2000)),
    ]);
    expect(closed).toMatchObject({ code: 4403 });
    expect(alive.ws.readyState).toBe(WebSocket.OPEN);
    alive.close();
  });
});

/** The status of a live-socket upgrade request. */
async function SELFfetch(path: string): Promise<number> {
  try {
    const socket = await openSocket(path);
    socket.close();
    return 101;
  } catch (err) {
    return Number(/expected 101, got (\d+)/.exec(String(err))?.[1] ?? 0);
  }
}

describe("emails the account already knows", () => {
  it("answers the public API the same whether an email is taken or not", async () => {
    const w = await createPublicWorld();
    const owner = await createContact(w.account.id);
    const taken = await createPublicContact(w.base, { name: "T", email: owner.email });
    const free = await createPublicContact(w.base, { name: "F", email: "free@example.com" });
    expect(taken.email).toBe(owner.email);
    expect(free.email).toBe("free@example.com");
    expect(Object.keys(taken).sort()).toEqual(Object.keys(free).sort());
    expect(taken.id).not.toBe(owner.id);
    // Not attached: the new contact has no email; the owner is untouched.
    expect((await findContactRow(taken.id))?.email).toBeNull();
    expect(await findContactRow(owner.id)).toEqual(owner);
    expect((await pub(`${w.base}/contacts/${taken.source_id}`)).body.email).toBe(owner.email);

    const visitor = await createPublicContact(w.base, { name: "V" });
    const path = `${w.base}/contacts/${visitor.source_id}`;
    const patched = await pub(path, { method: "PATCH", body: { email: owner.email } });
    expect(patched.status).toBe(200);
    expect(patched.body.email).toBe(owner.email);
    expect(JSON.stringify(patched.body)).not.toContain("taken");
    expect((await findContactRow(visitor.id))?.email).toBeNull();
    // A free email later is stored on the contact, and the claim gives way to it.
    const later = await pub(path, { method: "PATCH", body: { email: "mine@example.com" } });
    expect(later.body.email).toBe("mine@example.com");
    expect((await findContactRow(visitor.id))?.email).toBe("mine@example.com");
    expect((await contactInboxRow(visitor.source_id))?.claimed).toEqual({});
  });
});
