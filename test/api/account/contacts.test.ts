import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld } from "../../support/factories";
import {
  addContactInbox,
  contactInboxRows,
  createContact,
  createDefinition,
} from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const contacts = (accountId: number) => `/api/v1/accounts/${accountId}/contacts`;
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);

describeAuthMatrix("GET contacts", { method: "GET", path: (w) => contacts(w.account.id) });
describeAuthMatrix("GET contacts/search", {
  method: "GET",
  path: (w) => `${contacts(w.account.id)}/search?q=a`,
});
describeAuthMatrix("POST contacts/filter", {
  method: "POST",
  path: (w) => `${contacts(w.account.id)}/filter`,
  body: { payload: [] },
});
describeAuthMatrix("POST contacts", {
  method: "POST",
  path: (w) => contacts(w.account.id),
  body: { inbox_id: 1 },
});
/** A multipart request: the form is sent as is, with its own boundary. */
const multipart = (path: string, token: string, form: FormData, method = "POST") =>
  api(path, { method, token, raw: form });

describe("POST contacts (E3)", () => {
  it("creates the contact and its contact_inbox, answering {id, payload: [contact], contact_inbox}", async () => {
    const { account, agent, inbox } = await createWorld();
    await createDefinition(account.id, { attributeKey: "seats", attributeDisplayType: "number" });
    const res = await api(contacts(account.id), {
      method: "POST",
      token: agent.token,
      body: {
        inbox_id: inbox.id,
        name: "Alice",
        email: "  Alice@Example.COM ",
        phone_number: "+14155552671",
        identifier: "crm-1",
        blocked: false,
        avatar_url: "https://cdn.example.com/a.png",
        additional_attributes: { city: "Berlin", company_name: "Acme" },
        custom_attributes: { seats: "12" },
      },
    });
    expect(res.status).toBe(200);
    const sourceId = res.body.contact_inbox.source_id;
    expect(sourceId).toMatch(/^[0-9a-f-]{36}$/);
    const inboxJson = {
      id: inbox.id,
      avatar_url: "",
      channel_id: inbox.id,
      name: inbox.name,
      channel_type: "Channel::Api",
      provider: null,
    };
    const contact = {
      id: res.body.id,
      name: "Alice",
      email: "alice@example.com",
      phone_number: "+14155552671",
      identifier: "crm-1",
      blocked: false,
      thumbnail: "https://cdn.example.com/a.png",
      availability_status: "offline",
      additional_attributes: {
        city: "Berlin",
        country: "",
        country_code: "",
        created_at_ip: "",
        company_name: "Acme",
      },
      custom_attributes: { seats: 12 },
      last_activity_at: null,
      created_at: expect.any(Number),
      contact_inboxes: [{ source_id: sourceId, inbox: inboxJson }],
    };
    expect(res.body).toEqual({
      id: expect.any(Number),
      payload: [contact],
      contact_inbox: { source_id: sourceId, inbox: inboxJson },
    });
    const shown = await api(`${contacts(account.id)}/${res.body.id}`, { token: agent.token });
    expect(shown.body).toEqual({ payload: contact });
    const [row] = await contactInboxRows(res.body.id);
    expect(row?.pubsubToken).toMatch(/^[1-9A-Za-z]{24}$/);
  });

  it("keeps a given source_id and accepts the {contact: {...}} wrapping", async () => {
    const { account, admin, inbox } = await createWorld();
    const res = await api(contacts(account.id), {
      method: "POST",
      token: admin.token,
      body: { contact: { inbox_id: String(inbox.id), source_id: "visitor-42", name: "Bo" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.contact_inbox.source_id).toBe("visitor-42");
    expect(res.body.payload[0].name).toBe("Bo");
  });

  it("accepts multipart with an avatar file and JSON-string attributes", async () => {
    const { account, agent, inbox } = await createWorld();
    await createDefinition(account.id, { attributeKey: "vip", attributeDisplayType: "checkbox" });
    const form = new FormData();
    form.set("inbox_id", String(inbox.id));
    form.set("name", "Carol");
    form.set("email", "carol@example.com");
    form.set("blocked", "true");
    form.set("additional_attributes", JSON.stringify({ country: "France" }));
    form.set("custom_attributes[vip]", "true");
    form.set("avatar", new File([PNG], "me.png", { type: "image/png" }));
    const res = await multipart(contacts(account.id), agent.token, form);
    expect(res.status).toBe(200);
    const contact = res.body.payload[0];
    expect(contact).toMatchObject({
      name: "Carol",
      blocked: true,
      additional_attributes: { country: "France" },
      custom_attributes: { vip: true },
    });
    expect(contact.thumbnail).toMatch(/^http:\/\/parley\.test\/files\/\d+\/avatars\/.+\.png$/);
    const file = await SELF.fetch(contact.thumbnail);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it("refuses a non-image avatar and stores nothing", async () => {
    const { account, agent, inbox } = await createWorld();
    const form = new FormData();
    form.set("inbox_id", String(inbox.id));
    form.set("email", "dan@example.com");
    form.set("avatar", new File(["hello"], "x.txt", { type: "text/plain" }));
    const err = expectError(await multipart(contacts(account.id), agent.token, form), 422);
    expect(err.details.map((d) => d.path)).toEqual(["avatar"]);
    const list = await api(contacts(account.id), { token: agent.token });
    expect(list.body.meta.count).toBe(0);
  });

  it("answers 422 for duplicate email or identifier, with Chatwoot's message", async () => {
    const { account, agent, inbox } = await createWorld();
    await createContact(account.id, { email: "taken@example.com", identifier: "id-1" });
    const dupEmail = expectError(
      await api(contacts(account.id), {
        method: "POST",
        token: agent.token,
        body: { inbox_id: inbox.id, email: "TAKEN@example.com" },
      }),
      422,
    );
    expect(dupEmail.error).toBe("Email has already been taken");
    expect(dupEmail.details).toEqual([{ path: "email", message: "has already been taken" }]);
    const dupId = expectError(
      await api(contacts(account.id), {
        method: "POST",
        token: agent.token,
        body: { inbox_id: inbox.id, identifier: "id-1" },
      }),
      422,
    );
    expect(dupId.details.map((d) => d.path)).toEqual(["identifier"]);
    // Another account may use the same email.
    const other = await createWorld();
    const res = await api(contacts(other.account.id), {
      method: "POST",
      token: other.admin.token,
      body: { inbox_id: other.inbox.id, email: "taken@example.com" },
    });
    expect(res.status).toBe(200);
  });

  it("answers 422 for invalid fields, foreign inboxes and bad custom attributes; stores nothing", async () => {
    const { account, agent, inbox } = await createWorld();
    const foreignInbox = (await createWorld()).inbox;
    await createDefinition(account.id, {
      attributeKey: "code",
      regexPattern: "^[A-Z]{3}$",
      regexCue: "Three capital letters",
    });
    await createDefinition(account.id, { attributeKey: "seats", attributeDisplayType: "number" });
    await createDefinition(account.id, {
      attributeKey: "conv_only",
      attributeModel: "conversation_attribute",
    });
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ["inbox_id"]],
      [{ inbox_id: "abc" }, ["inbox_id"]],
      [{ inbox_id: foreignInbox.id }, ["inbox_id"]],
      [{ inbox_id: 999999999 }, ["inbox_id"]],
      [{ inbox_id: inbox.id, email: "not-an-email" }, ["email"]],
      [{ inbox_id: inbox.id, phone_number: "4155552671" }, ["phone_number"]],
      [{ inbox_id: inbox.id, phone_number: "+0123" }, ["phone_number"]],
      [{ inbox_id: inbox.id, avatar_url: "javascript:alert(1)" }, ["avatar_url"]],
      [{ inbox_id: inbox.id, blocked: "yes" }, ["blocked"]],
      [{ inbox_id: inbox.id, additional_attributes: { city: 5 } }, ["additional_attributes.city"]],
      [{ inbox_id: inbox.id, custom_attributes: { code: "abc" } }, ["custom_attributes.code"]],
      [{ inbox_id: inbox.id, custom_attributes: { seats: "many" } }, ["custom_attributes.seats"]],
      [{ inbox_id: inbox.id, custom_attributes: { nope: 1 } }, ["custom_attributes.nope"]],
      [
        { inbox_id: inbox.id, custom_attributes: { conv_only: "x" } },
        ["custom_attributes.conv_only"],
      ],
      [{ inbox_id: inbox.id, custom_attributes: "x" }, ["custom_attributes"]],
    ];
    for (const [body, paths] of cases) {
      const err = expectError(
        await api(contacts(account.id), { method: "POST", token: agent.token, body }),
        422,
      );
      expect(err.details.map((d) => d.path)).toEqual(paths);
    }
    const cue = expectError(
      await api(contacts(account.id), {
        method: "POST",
        token: agent.token,
        body: { inbox_id: inbox.id, custom_attributes: { code: "abc" } },
      }),
      422,
    );
    expect(cue.error).toContain("code");
    expect(cue.error).toContain("Three capital letters");
    // No body and no content type at all: the JSON schema still reports what is missing.
    const none = await api(contacts(account.id), { method: "POST", token: agent.token });
    expect(none.status).toBe(422);
    expect(none.body.details).toEqual([{ path: "inbox_id", message: expect.any(String) }]);
    const list = await api(contacts(account.id), { token: agent.token });
    expect(list.body.meta.count).toBe(0);
  });

  it("answers 422 when the given source_id is taken in that inbox", async () => {
    const { account, agent, inbox } = await createWorld();
    const existing = await createContact(account.id);
    await addContactInbox(existing.id, inbox.id, "src-1");
    const err = expectError(
      await api(contacts(account.id), {
        method: "POST",
        token: agent.token,
        body: { inbox_id: inbox.id, source_id: "src-1", email: "new@example.com" },
      }),
      422,
    );
    expect(err.details.map((d) => d.path)).toEqual(["source_id"]);
  });

  it("answers 400 for malformed JSON and 415 for other content types", async () => {
    const { account, agent } = await createWorld();
    expectError(
      await api(contacts(account.id), { method: "POST", token: agent.token, raw: "{oops" }),
      400,
    );
    expectError(
      await api(contacts(account.id), {
        method: "POST",
        token: agent.token,
        raw: "x",
        headers: { "content-type": "text/plain" },
      }),
      415,
    );
  });
});
