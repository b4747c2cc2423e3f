import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as t from "../../../worker/db/schema";
import { envWarnings } from "../../../worker/env";
import { mailBaseUrl } from "../../../worker/lib/public-url";
import { createWorld, db, unique } from "../../support/factories";
import { api } from "../../support/http";
import { recordMail } from "../../support/mail";
import { apiSettled } from "../../support/settled";

let mail: ReturnType<typeof recordMail>;
beforeEach(() => {
  mail = recordMail();
});
afterEach(() => mail.stop());

// test/vitest.config.ts sets it; the requests below come to other hosts.
const PUBLIC_URL = "https://chat.parley.test";
const HOSTILE = "evil.example";

const ip = () => ({ "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 250) + 1}` });

const linksOf = (userId: number) =>
  db().select().from(t.oneTimeLinks).where(eq(t.oneTimeLinks.userId, userId)).all();

/** An account with an agent: the email that has a user. */
async function existingUser() {
  const world = await createWorld();
  return { ...world, email: world.agent.email, userId: world.agent.id };
}

describe("mailed links are built on PUBLIC_URL, never on the request's Host", () => {
  it("POST /auth/password with a hostile Host mails a link on PUBLIC_URL", async () => {
    expect(env.PUBLIC_URL).toBe(PUBLIC_URL);
    const { email } = await existingUser();
    const res = await apiSettled("/auth/password", { host: HOSTILE, body: { email } });
    expect(res.status).toBe(200);
    const url = mail.urlTo(email);
    expect(url).toMatch(
      /^https:\/\/chat\.parley\.test\/app\/auth\/password\/edit\?reset_password_token=\w{43}$/,
    );
    expect(mail.sent.at(-1)?.text).not.toContain(HOSTILE);
  });

  it("the welcome and invitation mails of POST …/agents do too", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const fresh = `${unique("new")}@example.com`;
    for (const email of [fresh, other.agent.email]) {
      const res = await apiSettled(`/api/v1/accounts/${account.id}/agents`, {
        host: HOSTILE,
        token: admin.token,
        body: { name: "Someone", email },
      });
      expect(res.status).toBe(200);
      expect(mail.urlTo(email).startsWith(`${PUBLIC_URL}/app/auth/`)).toBe(true);
      expect(mail.sent.at(-1)?.text).not.toContain(HOSTILE);
    }
  });

  it("a PUBLIC_URL with a path keeps it, without doubling the slash", async () => {
    const { email } = await existingUser();
    await apiSettled("/auth/password", {
      host: HOSTILE,
      body: { email },
      env: { PUBLIC_URL: "https://example.com/parley/" },
    });
    expect(mail.urlTo(email)).toMatch(
      /^https:\/\/example\.com\/parley\/app\/auth\/password\/edit\?reset_password_token=/,
    );
  });
});

describe("without a valid PUBLIC_URL nothing is mailed", () => {
  for (const [label, value] of [
    ["unset", undefined],
    ["blank", " "],
    ["not absolute", "chat.example.com"],
    ["not http(s)", "javascript://chat.example.com"],
    ["with credentials", "https://user:pass@chat.example.com"],
  ] as const) {
    it(`${label}: the API answers as usual, no link is made, no mail leaves`, async () => {
      const { email, userId, account, admin } = await existingUser();
      const before = mail.sent.length;
      const logged = vi.spyOn(console, "log");
      const known = await apiSettled("/auth/password", {
        host: HOSTILE,
        body: { email },
        env: { PUBLIC_URL: value },
      });
      const unknown = await apiSettled("/auth/password", {
        body: { email: `${unique("ghost")}@example.com` },
        env: { PUBLIC_URL: value },
      });
      // The same answer as with mail, so it tells nothing about the email either.
      expect(known.status).toBe(200);
      expect(known.body).toEqual(unknown.body);
      const fresh = `${unique("new")}@example.com`;
      const added = await apiSettled(`/api/v1/accounts/${account.id}/agents`, {
        token: admin.token,
        body: { name: "Someone", email: fresh },
        env: { PUBLIC_URL: value },
      });
      expect(added.status).toBe(200);
      expect(added.body.email).toBe(fresh);
      expect(mail.sent.length).toBe(before);
      expect(await linksOf(userId)).toEqual([]);
      expect(await linksOf(added.body.id)).toEqual([]);
      expect(envWarnings({ ...env, PUBLIC_URL: value })).toHaveLength(1);
      // Each refusal is logged, with what it was for.
      const refusals = logged.mock.calls
        .map(([line]) => String(line))
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => String(line.msg).startsWith("mail not sent: PUBLIC_URL"));
      logged.mockRestore();
      expect(refusals.map((r) => [r.level, r.purpose, r.user_id])).toEqual([
        ["error", "set_password", userId],
        ["error", "set_password", added.body.id],
      ]);
    });
  }

  it("the startup check warns only when PUBLIC_URL is missing or malformed", () => {
    expect(envWarnings(env)).toEqual([]);
    expect(envWarnings({ ...env, PUBLIC_URL: undefined })[0]).toMatch(/PUBLIC_URL is not set/);
    expect(mailBaseUrl("http://127.0.0.1:8787/")).toBe("http://127.0.0.1:8787");
    expect(mailBaseUrl("https://chat.example.com?x=1")).toBeNull();
  });
});

describe("POST /auth/password takes the same path for known and unknown emails", () => {
  it("answers before the lookup's mail is sent, with the same body", async () => {
    const { email } = await existingUser();
    // A mail that never leaves: were the answer waiting for the mail, it would never come.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    mail.stop();
    const spy = vi.spyOn(env.EMAIL as SendEmail, "send").mockImplementation(async () => {
      await held;
      return { messageId: "held" } as unknown as EmailSendResult;
    });
    try {
      const known = await api("/auth/password", { body: { email }, headers: ip() });
      const unknown = await api("/auth/password", {
        body: { email: `${unique("ghost")}@example.com` },
        headers: ip(),
      });
      expect(known.status).toBe(200);
      expect(known.body).toEqual(unknown.body);
      expect(known.headers.get("content-length")).toBe(unknown.headers.get("content-length"));
      await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1), { timeout: 20_000 });
    } finally {
      release();
      spy.mockRestore();
      mail = recordMail();
    }
  }, 30_000);
});
