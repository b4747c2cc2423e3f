import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createInbox, createWorld } from "../../support/factories";
import {
  addContactInbox,
  contactInboxRows,
  contactLabelRows,
  createContact,
  tagContact,
} from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const contactPath = (accountId: number, id: number | string) =>
  `/api/v1/accounts/${accountId}/contacts/${id}`;
const withContact = (suffix: string) => async (w: Awaited<ReturnType<typeof createWorld>>) =>
  `${contactPath(w.account.id, (await createContact(w.account.id)).id)}/${suffix}`;

describeAuthMatrix("GET contacts/{id}/labels", { method: "GET", path: withContact("labels") });
describeAuthMatrix("POST contacts/{id}/labels", {
  method: "POST",
  path: withContact("labels"),
  body: { labels: ["a"] },
});
describeAuthMatrix("GET contacts/{id}/contact_inboxes", {
  method: "GET",
  path: withContact("contact_inboxes"),
});
describeAuthMatrix("POST contacts/{id}/contact_inboxes", {
  method: "POST",
  path: withContact("contact_inboxes"),
  body: { inbox_id: 1 },
});

describe("contact labels", () => {
  it("lists, then replaces the set with free-form lower-cased titles", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id);
    await tagContact(contact.id, ["old", "keep"]);
    const path = `${contactPath(account.id, contact.id)}/labels`;
    expect((await api(path, { token: agent.token })).body).toEqual({ payload: ["keep", "old"] });
    const res = await api(path, {
      method: "POST",
      token: agent.token,
      body: { labels: ["Keep", "new label", "keep", " VIP "] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ payload: ["keep", "new label", "vip"] });
    expect((await api(path, { token: agent.token })).body).toEqual({
      payload: ["keep", "new label", "vip"],
    });
    const cleared = await api(path, { method: "POST", token: agent.token, body: { labels: [] } });
    expect(cleared.body).toEqual({ payload: [] });
    expect(await contactLabelRows(contact.id)).toEqual([]);
  });

  it("stores up to 100 labels in one call", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id);
    const labels = Array.from({ length: 100 }, (_, i) => `l${String(i).padStart(3, "0")}`);
    const res = await api(`${contactPath(account.id, contact.id)}/labels`, {
      method: "POST",
      token: agent.token,
      body: { labels },
    });
    expect(res.body.payload).toEqual(labels);
  });

  it("answers 422 for bad bodies and keeps the labels", async () => {
    const { account, agent } = await createWorld();
    const contact = await createContact(account.id);
    await tagContact(contact.id, ["stay"]);
    const path = `${contactPath(account.id, contact.id)}/labels`;
    for (const body of [
      {},
      { labels: "a" },
      { labels: [1] },
      { labels: [""] },
      { labels: Array(101).fill("x") },
    ]) {
      expectError(await api(path, { method: "POST", token: agent.token, body }), 422);
    }
    expect((await api(path, { token: agent.token })).body).toEqual({ payload: ["stay"] });
  });

  it("answers 404 for another account's contact", async () => {
    const { account, agent } = await createWorld();
    const foreign = await createContact((await createWorld()).account.id);
    await tagContact(foreign.id, ["theirs"]);
    const path = `${contactPath(account.id, foreign.id)}/labels`;
    expectError(await api(path, { token: agent.token }), 404);
    expectError(await api(path, { method: "POST", token: agent.token, body: { labels: [] } }), 404);
    expect((await contactLabelRows(foreign.id)).map((r) => r.title)).toEqual(["theirs"]);
  });
});

describe("contact inboxes", () => {
  it("lists the contact's inboxes and adds one with a generated or given source_id", async () => {
    const { account, agent, inbox } = await createWorld();
    const second = await createInbox(account.id, { channelType: "Channel::WebWidget" });
    const contact = await createContact(account.id);
    await addContactInbox(contact.id, inbox.id, "first");
    const path = `${contactPath(account.id, contact.id)}/contact_inboxes`;
    const added = await api(path, {
      method: "POST",
      token: agent.token,
      body: { inbox_id: second.id },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      source_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inbox: {
        id: second.id,
        avatar_url: "",
        channel_id: second.id,
        name: second.name,
        channel_type: "Channel::WebWidget",
        provider: null,
      },
    });
    const given = await api(path, {
      method: "POST",
      token: agent.token,
      body: { inbox_id: inbox.id, source_id: "second-source" },
    });
    expect(given.body.source_id).toBe("second-source");
    const listed = await api(path, { token: agent.token });
    expect(listed.body.payload.map((ci: { source_id: string }) => ci.source_id)).toEqual([
      "first",
      added.body.source_id,
      "second-source",
    ]);
  });

  it("answers 422 for a foreign inbox or a taken source_id, adding nothing", async () => {
    const { account, agent, inbox } = await createWorld();
    const foreignInbox = (await createWorld()).inbox;
    const contact = await createContact(account.id);
    await addContactInbox((await createContact(account.id)).id, inbox.id, "taken");
    const path = `${contactPath(account.id, contact.id)}/contact_inboxes`;
    for (const [body, field] of [
      [{ inbox_id: foreignInbox.id }, "inbox_id"],
      [{ inbox_id: inbox.id, source_id: "taken" }, "source_id"],
      [{}, "inbox_id"],
      [{ inbox_id: "x" }, "inbox_id"],
    ] as const) {
      const err = expectError(await api(path, { method: "POST", token: agent.token, body }), 422);
      expect(err.details.map((d) => d.path)).toEqual([field]);
    }
    expect(await contactInboxRows(contact.id)).toEqual([]);
  });
});
