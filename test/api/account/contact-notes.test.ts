import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld } from "../../support/factories";
import { createContact } from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const notes = (accountId: number, contactId: number) =>
  `/api/v1/accounts/${accountId}/contacts/${contactId}/notes`;

async function addNote(accountId: number, contactId: number, token: string, content: string) {
  const res = await api(notes(accountId, contactId), { method: "POST", token, body: { content } });
  expect(res.status).toBe(200);
  return res.body as { id: number };
}

describe("contact notes", () => {
  it("an agent adds notes (authored by them), lists newest first, changes and deletes one", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id);
    const first = await addNote(account.id, contact.id, agent.token, "First");
    const res = await api(notes(account.id, contact.id), {
      method: "POST",
      token: agent.token,
      body: { note: { content: "Second" } },
    });
    expect(res.body).toMatchObject({
      content: "Second",
      account_id: account.id,
      contact_id: contact.id,
      user: { id: agent.id, role: "agent" },
      created_at: expect.any(Number),
    });
    const list = await api(notes(account.id, contact.id), { token: agent.token });
    expect(list.body.map((n: { content: string }) => n.content)).toEqual(["Second", "First"]);

    const changed = await api(`${notes(account.id, contact.id)}/${first.id}`, {
      method: "PATCH",
      token: agent.token,
      body: { content: "First, edited" },
    });
    expect(changed.body).toMatchObject({ id: first.id, content: "First, edited" });
    await api(`${notes(account.id, contact.id)}/${first.id}`, {
      method: "DELETE",
      token: agent.token,
    });
    expectError(
      await api(`${notes(account.id, contact.id)}/${first.id}`, { token: agent.token }),
      404,
    );
  });

  it("a note is reached only through its own contact and account; blank or huge content is a 422", async () => {
    const { account, admin } = await createWorld();
    const contact = await createContact(account.id);
    const otherContact = await createContact(account.id);
    const note = await addNote(account.id, contact.id, admin.token, "Mine");
    expectError(
      await api(`${notes(account.id, otherContact.id)}/${note.id}`, { token: admin.token }),
      404,
    );
    const other = await createWorld();
    expectError(await api(notes(account.id, contact.id), { token: other.admin.token }), 404);
    const foreign = await createContact(other.account.id);
    expectError(
      await api(notes(account.id, foreign.id), {
        method: "POST",
        token: admin.token,
        body: { content: "x" },
      }),
      404,
    );
    for (const content of ["", "   ", "x".repeat(20_001)]) {
      expectError(
        await api(notes(account.id, contact.id), {
          method: "POST",
          token: admin.token,
          body: { content },
        }),
        422,
      );
    }
    const list = await api(notes(account.id, contact.id), { token: admin.token });
    expect(list.body).toHaveLength(1);
  });
});

describeAuthMatrix("GET contacts/{id}/notes", {
  method: "GET",
  path: async (w) => notes(w.account.id, (await createContact(w.account.id)).id),
});
describeAuthMatrix("POST contacts/{id}/notes", {
  method: "POST",
  path: async (w) => notes(w.account.id, (await createContact(w.account.id)).id),
  body: { content: "x" },
});
