import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../../support/factories-public";
import { TINY_PNG } from "../../support/files";
import { api, expectError } from "../../support/http";
import { postStored } from "../../support/posted";

async function setup() {
  const w = await createPublicWorld();
  const { contact, conversation, path } = await createPublicConversation(w.base, { name: "Vi" });
  const account = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/messages`;
  return { ...w, contact, conversation, messages: `${path}/messages`, account };
}

/**
 * An agent's message through the account API, once D1 has it: the post is answered at the room's
 * commit, and the public API reads D1 alone (docs/realtime.md, "Read your writes").
 */
async function agentSays(s: Awaited<ReturnType<typeof setup>>, body: Record<string, unknown>) {
  const res = await postStored(s.account, { token: s.admin.token, body });
  expect(res.status).toBe(200);
  return res.body as { id: number };
}

describe("POST messages", () => {
  it("sends an incoming message from the contact, echoing echo_id", async () => {
    const s = await setup();
    const res = await pub(s.messages, {
      method: "POST",
      body: { content: "Hello!", echo_id: "tmp-1", message_type: "outgoing", private: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      content: "Hello!",
      message_type: 0,
      content_type: "text",
      content_attributes: {},
      created_at: expect.any(Number),
      conversation_id: s.conversation.id,
      seq: 1,
      status: "sent",
      echo_id: "tmp-1",
      attachments: [],
      // Which contact, nothing personal (issue 20: identity-join.test.ts).
      sender: { id: s.contact.id, type: "contact", name: "", avatar_url: "", thumbnail: "" },
    });
    // The agents see it as the contact's.
    const seen = await api(s.account, { token: s.admin.token });
    expect(seen.body.payload).toMatchObject([
      { id: res.body.id, private: false, sender_type: "Contact", sender_id: s.contact.id },
    ]);
  });

  it("sends attachments by multipart, stored and downloadable", async () => {
    const s = await setup();
    const form = new FormData();
    form.append("content", "see attached");
    form.append("echo_id", "tmp-2");
    form.append("attachments[]", new File(["hello file"], "notes.txt", { type: "text/plain" }));
    form.append("attachments[]", new File([TINY_PNG], "pic.png", { type: "image/png" }));
    const res = await pub(s.messages, { method: "POST", raw: form });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: "see attached", echo_id: "tmp-2", message_type: 0 });
    expect(res.body.attachments).toHaveLength(2);
    const [text, image] = res.body.attachments;
    expect(text).toMatchObject({ file_type: "file", extension: "txt", file_size: 10 });
    expect(image).toMatchObject({ file_type: "image", extension: "png", message_id: res.body.id });
    const file = await SELF.fetch(text.data_url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("hello file");

    const only = new FormData();
    only.append("attachments", new File(["x"], "x.bin"));
    const attachmentOnly = await pub(s.messages, { method: "POST", raw: only });
    expect(attachmentOnly.status).toBe(200);
    expect(attachmentOnly.body.content).toBeNull();
  });

  it("rejects a blank message with 422 and stores nothing", async () => {
    const s = await setup();
    for (const body of [{}, { content: "  " }, { content: 5 }, { echo_id: "x".repeat(300) }]) {
      expectError(await pub(s.messages, { method: "POST", body }), 422);
    }
    expectError(await pub(s.messages, { method: "POST", raw: new FormData() }), 422);
    expect((await pub(s.messages)).body).toEqual([]);
  });

  it("works in a web-widget inbox", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const { path } = await createPublicConversation(w.base);
    const res = await pub(`${path}/messages`, { method: "POST", body: { content: "hi" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message_type).toBe(0);
  });
});

describe("GET messages (E20)", () => {
  it("lists a top-level array in seq order with integer message types", async () => {
    const s = await setup();
    await pub(s.messages, { method: "POST", body: { content: "one" } });
    await agentSays(s, { content: "two" });
    await agentSays(s, { content: "a private note", private: true });
    await pub(s.messages, { method: "POST", body: { content: "three" } });
    const res = await pub(s.messages);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((m: { content: string }) => m.content)).toEqual(["one", "two", "three"]);
    expect(res.body.map((m: { message_type: number }) => m.message_type)).toEqual([0, 1, 0]);
    expect(res.body[1].sender).toMatchObject({ id: s.admin.id, type: "user" });
    const seqs = res.body.map((m: { seq: number }) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it("pages: the latest 20, then 20 before a message id", async () => {
    const s = await setup();
    for (let i = 1; i <= 25; i++) {
      await agentSays(s, { content: `m${i}` });
    }
    const latest = (await pub(s.messages)).body;
    expect(latest.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    );
    const older = (await pub(`${s.messages}?before=${latest[0].id}`)).body;
    expect(older.map((m: { content: string }) => m.content)).toEqual([
      "m1",
      "m2",
      "m3",
      "m4",
      "m5",
    ]);
    expectError(await pub(`${s.messages}?before=abc`), 422);
  });
});

describe("PATCH messages/{id} (submitted values)", () => {
  it("stores the visitor's answer to an outgoing prompt", async () => {
    const s = await setup();
    const prompt = await agentSays(s, {
      content: "Pick one",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }] },
    });
    const submitted_values = [{ title: "Yes", value: "yes" }];
    const res = await pub(`${s.messages}/${prompt.id}`, {
      method: "PATCH",
      body: { submitted_values },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: prompt.id,
      message_type: 1,
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }], submitted_values },
    });
    const csat = { csat_survey_response: { rating: 5, feedback_message: "Great" } };
    const again = await pub(`${s.messages}/${prompt.id}`, {
      method: "PATCH",
      body: { submitted_values: csat },
    });
    expect(again.body.content_attributes.submitted_values).toEqual(csat);
  });

  it("refuses private notes (404), the visitor's own messages (422) and bad bodies (422)", async () => {
    const s = await setup();
    const note = await agentSays(s, { content: "internal", private: true });
    const body = { submitted_values: [{ value: "x" }] };
    expectError(await pub(`${s.messages}/${note.id}`, { method: "PATCH", body }), 404);
    const own = (await pub(s.messages, { method: "POST", body: { content: "mine" } })).body;
    expectError(await pub(`${s.messages}/${own.id}`, { method: "PATCH", body }), 422);
    const prompt = await agentSays(s, { content: "Your email?", content_type: "input_email" });
    for (const bad of [{}, { submitted_values: "x" }]) {
      expectError(await pub(`${s.messages}/${prompt.id}`, { method: "PATCH", body: bad }), 422);
    }
    expectError(await pub(`${s.messages}/999999`, { method: "PATCH", body }), 404);
  });

  it("makes an input_email's answer the contact's email too (as the widget sends it, or {email})", async () => {
    const s = await setup();
    const contact = `${s.base}/contacts/${s.contact.source_id}`;
    expect((await pub(contact)).body.email).toBeNull();
    const prompt = await agentSays(s, { content: "Your email?", content_type: "input_email" });
    const submitted_values = [{ name: "email", title: "Email", value: " Vi@Example.com " }];
    const res = await pub(`${s.messages}/${prompt.id}`, {
      method: "PATCH",
      body: { submitted_values },
    });
    expect(res.status).toBe(200);
    expect(res.body.content_attributes).toMatchObject({
      submitted_values,
      submitted_email: "vi@example.com",
    });
    expect((await pub(contact)).body.email).toBe("vi@example.com");
    const later = await agentSays(s, { content: "Another email?", content_type: "input_email" });
    const other = await pub(`${s.messages}/${later.id}`, {
      method: "PATCH",
      body: { submitted_values: { email: "vi@work.example" } },
    });
    expect(other.status).toBe(200);
    // The stored contact, as agents see it (not only the session's own view).
    const accountBase = s.account.replace(/\/conversations\/.*$/, "");
    const agents = await api(`${accountBase}/contacts/${s.contact.id}`, { token: s.admin.token });
    expect(agents.body.payload.email).toBe("vi@work.example");
  });

  it("refuses an input_email answer without a valid email (422) and changes nothing", async () => {
    const s = await setup();
    const contact = `${s.base}/contacts/${s.contact.source_id}`;
    const prompt = await agentSays(s, { content: "Your email?", content_type: "input_email" });
    for (const submitted_values of [
      [{ name: "email", value: "not-an-email" }],
      [{ name: "email", value: "" }],
      [{ name: "email" }],
      [{ name: "email", value: `${"a".repeat(250)}@example.com` }],
      { email: "two@at@signs" },
      { rating: 5 },
    ]) {
      const res = await pub(`${s.messages}/${prompt.id}`, {
        method: "PATCH",
        body: { submitted_values },
      });
      expectError(res, 422);
      expect(res.body.details?.[0]?.path).toBe("submitted_values");
    }
    const shown = (await pub(s.messages)).body.find((m: { id: number }) => m.id === prompt.id);
    expect(shown.content_attributes).not.toHaveProperty("submitted_values");
    expect((await pub(contact)).body.email).toBeNull();
  });

  it("keeps the conversation's status when answering", async () => {
    const s = await setup();
    const prompt = await agentSays(s, { content: "Rate us", content_type: "input_csat" });
    await pub(`${s.messages}/${prompt.id}`, {
      method: "PATCH",
      body: { submitted_values: { csat_survey_response: { rating: 4 } } },
    });
    expect((await conversationByUuid(s.conversation.uuid))?.status).toBe("open");
  });
});

describe("echo_id", () => {
  it("makes a retried send return the first message instead of a second one", async () => {
    const w = await createPublicWorld();
    const { path } = await createPublicConversation(w.base);
    const send = () =>
      pub(`${path}/messages`, {
        method: "POST",
        body: { content: "only once", echo_id: "retry-1" },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    const list = await pub(`${path}/messages`);
    expect(list.body.filter((m: { content: string }) => m.content === "only once")).toHaveLength(1);
  });
});
