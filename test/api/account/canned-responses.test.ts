import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgent, createWorld, unique } from "../../support/factories";
import { createContact, createConversation } from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}/canned_responses`;

async function create(accountId: number, token: string, body: unknown) {
  const res = await api(base(accountId), { method: "POST", token, body });
  expect(res.status).toBe(200);
  return res.body as { id: number; short_code: string; content: string };
}

describe("canned responses", () => {
  it("an agent creates one (flat or wrapped), lists it, updates and deletes it", async () => {
    const { account, agent } = await createWorld();
    const created = await create(account.id, agent.token, {
      canned_response: { short_code: "welcome", content: "Hello there" },
    });
    expect(created).toEqual({
      id: expect.any(Number),
      account_id: account.id,
      short_code: "welcome",
      content: "Hello there",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await create(account.id, agent.token, { short_code: "bye", content: "Goodbye" });
    const list = await api(base(account.id), { token: agent.token });
    expect(list.body.map((r: { short_code: string }) => r.short_code)).toEqual(["welcome", "bye"]);

    const patched = await api(`${base(account.id)}/${created.id}`, {
      method: "PATCH",
      token: agent.token,
      body: { content: "Hi!" },
    });
    expect(patched.body).toMatchObject({ id: created.id, short_code: "welcome", content: "Hi!" });

    const gone = await api(`${base(account.id)}/${created.id}`, {
      method: "DELETE",
      token: agent.token,
    });
    expect(gone.status).toBe(200);
    expectError(await api(`${base(account.id)}/${created.id}`, { token: agent.token }), 404);
    const after = await api(base(account.id), { token: agent.token });
    expect(after.body.map((r: { short_code: string }) => r.short_code)).toEqual(["bye"]);
  });

  it("?search= matches short codes and contents, short-code prefixes first", async () => {
    const { account, admin } = await createWorld();
    await create(account.id, admin.token, {
      short_code: "thanks",
      content: "Refund is on its way",
    });
    await create(account.id, admin.token, { short_code: "my-refund", content: "See above" });
    await create(account.id, admin.token, { short_code: "refund", content: "We refunded you" });
    await create(account.id, admin.token, { short_code: "other", content: "Nothing here" });
    const other = await createWorld();
    await create(other.account.id, other.admin.token, { short_code: "refund", content: "x" });

    const res = await api(`${base(account.id)}?search=REFUND`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { short_code: string }) => r.short_code)).toEqual([
      "refund",
      "my-refund",
      "thanks",
    ]);
    // LIKE's wildcards are plain characters here.
    const wild = await api(`${base(account.id)}?search=%25`, { token: admin.token });
    expect(wild.body).toEqual([]);
  });

  it("short codes are unique per account; blank and oversized input is a 422 that stores nothing", async () => {
    const { account, admin } = await createWorld();
    await create(account.id, admin.token, { short_code: "dup", content: "one" });
    for (const body of [
      { short_code: "dup", content: "two" },
      { short_code: "", content: "x" },
      { short_code: "ok", content: "   " },
      { short_code: "ok" },
      { short_code: "x".repeat(256), content: "x" },
      { short_code: "ok2", content: "x".repeat(10_001) },
    ]) {
      expectError(await api(base(account.id), { method: "POST", token: admin.token, body }), 422);
    }
    expectError(
      await api(`${base(account.id)}?search=${"x".repeat(300)}`, { token: admin.token }),
      422,
    );
    const list = await api(base(account.id), { token: admin.token });
    expect(list.body).toHaveLength(1);
  });

  it("fills {{variables}} in for ?conversation_id= the caller may see", async () => {
    const { account, admin, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const contact = await createContact(account.id, {
      name: "Ada Lovelace",
      email: "ada@example.com",
      customAttributes: { plan: "gold" },
    });
    const conversation = await createConversation(account.id, inbox.id, {
      contactId: contact.id,
      assigneeId: admin.id,
    });
    const row = await create(account.id, admin.token, {
      short_code: unique("vars"),
      content:
        "Hi {{contact.first_name}} ({{ contact.email }}), plan {{contact.custom_attribute.plan}}; " +
        "#{{conversation.id}} with {{agent.name}}{{unknown.thing}}.",
    });
    const url = `${base(account.id)}/${row.id}?conversation_id=${conversation.displayId}`;
    const res = await api(url, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe(
      `Hi Ada (ada@example.com), plan gold; #${conversation.displayId} with ${admin.name}.`,
    );
    // Without a conversation the content is as stored.
    const plain = await api(`${base(account.id)}/${row.id}`, { token: agent.token });
    expect(plain.body.content).toBe(row.content);
    // A conversation of an inbox the agent is not a member of is not found.
    const outsider = await createAgent(account.id);
    expectError(await api(url, { token: outsider.token }), 404);
  });

  it("another account's canned response is not found, and is left as it was", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const theirs = await create(other.account.id, other.admin.token, {
      short_code: "theirs",
      content: "secret",
    });
    for (const method of ["GET", "PATCH", "DELETE"]) {
      expectError(
        await api(`${base(account.id)}/${theirs.id}`, {
          method,
          token: admin.token,
          body: method === "PATCH" ? { content: "pwned" } : undefined,
        }),
        404,
      );
    }
    const list = await api(base(other.account.id), { token: other.admin.token });
    expect(list.body).toMatchObject([{ id: theirs.id, content: "secret" }]);
  });
});

describeAuthMatrix("GET canned_responses", {
  method: "GET",
  path: (w) => base(w.account.id),
});
describeAuthMatrix("POST canned_responses", {
  method: "POST",
  path: (w) => base(w.account.id),
  body: { short_code: "x", content: "y" },
});
describeAuthMatrix("PATCH canned_responses/{id}", {
  method: "PATCH",
  path: async (w) =>
    `${base(w.account.id)}/${(await create(w.account.id, w.admin.token, { short_code: unique("m"), content: "c" })).id}`,
  body: { content: "z" },
});
describeAuthMatrix("DELETE canned_responses/{id}", {
  method: "DELETE",
  path: async (w) =>
    `${base(w.account.id)}/${(await create(w.account.id, w.admin.token, { short_code: unique("m"), content: "c" })).id}`,
});
