import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createInbox, createWorld } from "../../support/factories";
import {
  addContactInbox,
  contactInboxRows,
  createContact,
  createDefinition,
  findContactRow,
} from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const contacts = (accountId: number) => `/api/v1/accounts/${accountId}/contacts`;
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);

const contactPath = async (w: Awaited<ReturnType<typeof createWorld>>) =>
  `${contacts(w.account.id)}/${(await createContact(w.account.id)).id}`;

describeAuthMatrix("GET contacts/{id}", { method: "GET", path: contactPath });
describeAuthMatrix("PATCH contacts/{id}", { method: "PATCH", path: contactPath, body: {} });
describeAuthMatrix("PUT contacts/{id}", { method: "PUT", path: contactPath, body: {} });
describeAuthMatrix("DELETE contacts/{id}", {
  method: "DELETE",
  path: contactPath,
  adminOnly: true,
});

/** A multipart request: the form is sent as is, with its own boundary. */
const multipart = (path: string, token: string, form: FormData, method = "POST") =>
  api(path, { method, token, raw: form });

describe("GET contacts/{id}", () => {
  it("answers 404 for unknown, malformed and other accounts' contacts", async () => {
    const { account, agent } = await createWorld();
    const foreign = await createContact((await createWorld()).account.id);
    for (const id of [String(foreign.id), "999999999", "abc", "-1"]) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        expectError(
          await api(`${contacts(account.id)}/${id}`, {
            method,
            token: method === "DELETE" ? (await createWorld()).admin.token : agent.token,
            body: method === "PATCH" ? { name: "x" } : undefined,
          }),
          404,
        );
      }
    }
    expect((await findContactRow(foreign.id))?.name).toBe(foreign.name);
  });
});

describe("PATCH / PUT contacts/{id}", () => {
  it("updates the sent fields and merges custom and additional attributes", async () => {
    const { account, agent, inbox } = await createWorld();
    await createDefinition(account.id, { attributeKey: "plan" });
    await createDefinition(account.id, { attributeKey: "seats", attributeDisplayType: "number" });
    const contact = await createContact(account.id, {
      name: "Old",
      phoneNumber: "+4930123456",
      additionalAttributes: { city: "Berlin", company_name: "Acme" },
      customAttributes: { plan: "free", seats: 3 },
    });
    await addContactInbox(contact.id, inbox.id, "s-1");
    const res = await api(`${contacts(account.id)}/${contact.id}`, {
      method: "PATCH",
      token: agent.token,
      body: {
        name: "New",
        email: "NEW@example.com",
        additional_attributes: { city: "Paris" },
        custom_attributes: { seats: 5 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      id: contact.id,
      name: "New",
      email: "new@example.com",
      phone_number: "+4930123456",
      additional_attributes: { city: "Paris", company_name: "Acme" },
      custom_attributes: { plan: "free", seats: 5 },
      contact_inboxes: [{ source_id: "s-1" }],
    });
    const put = await api(`${contacts(account.id)}/${contact.id}`, {
      method: "PUT",
      token: agent.token,
      body: { contact: { phone_number: null, custom_attributes: { plan: null } } },
    });
    expect(put.body.payload.phone_number).toBeNull();
    expect(put.body.payload.custom_attributes).toEqual({ seats: 5 });
  });

  it("keeps its own email, refuses another contact's, and changes nothing on 422", async () => {
    const { account, agent } = await createWorld();
    const other = await createContact(account.id, { email: "other@example.com" });
    const contact = await createContact(account.id, { email: "me@example.com" });
    const same = await api(`${contacts(account.id)}/${contact.id}`, {
      method: "PATCH",
      token: agent.token,
      body: { email: "me@example.com", name: "Me" },
    });
    expect(same.status).toBe(200);
    for (const body of [
      { email: other.email, name: "Changed" },
      { name: "Changed", phone_number: "12" },
      { name: "Changed", custom_attributes: { unknown: 1 } },
      { name: 5 },
    ]) {
      expectError(
        await api(`${contacts(account.id)}/${contact.id}`, {
          method: "PATCH",
          token: agent.token,
          body,
        }),
        422,
      );
    }
    const row = await findContactRow(contact.id);
    expect(row).toMatchObject({ name: "Me", email: "me@example.com" });
  });

  it("replaces the avatar through multipart", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id);
    const form = new FormData();
    form.set("avatar", new File([PNG], "new.png", { type: "image/png" }));
    form.set("name", "Pictured");
    const res = await multipart(
      `${contacts(account.id)}/${contact.id}`,
      agent.token,
      form,
      "PATCH",
    );
    expect(res.status).toBe(200);
    expect(res.body.payload.name).toBe("Pictured");
    expect(res.body.payload.thumbnail).toContain("/files/");
  });
});

describe("DELETE contacts/{id}", () => {
  it("deletes the contact with its contact inboxes and answers {}", async () => {
    const { account, admin } = await createWorld();
    const inbox = await createInbox(account.id);
    const contact = await createContact(account.id);
    await addContactInbox(contact.id, inbox.id);
    const res = await api(`${contacts(account.id)}/${contact.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await findContactRow(contact.id)).toBeUndefined();
    expect(await contactInboxRows(contact.id)).toEqual([]);
  });
});
