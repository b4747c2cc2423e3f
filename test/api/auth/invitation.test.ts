import { SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorld } from "../../support/factories";
import { findMembershipRow, findUserRow } from "../../support/factories-inboxes";
import { api } from "../../support/http";
import { recordMail } from "../../support/mail";

let mail: ReturnType<typeof recordMail>;
beforeEach(() => {
  mail = recordMail();
});
afterEach(() => mail.stop());

async function page(path: string, form?: Record<string, string>) {
  const res = await SELF.fetch(`http://parley.test${path}`, {
    method: form ? "POST" : "GET",
    headers: {
      "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Account B's admin invites account A's agent by email. */
async function crossInvite(role: "agent" | "administrator" = "agent") {
  const a = await createWorld();
  const b = await createWorld();
  const res = await api(`/api/v1/accounts/${b.account.id}/agents`, {
    token: b.admin.token,
    body: { name: "Whoever", email: a.agent.email, role },
  });
  expect(res.status).toBe(200);
  const link = mail.linkTo(a.agent.email);
  const token = new URL(`http://x${link}`).searchParams.get("invitation_token") ?? "";
  return { a, b, link, token };
}

describe("inviting a user of another account", () => {
  it("joins only when the user accepts, with the role chosen, once", async () => {
    const { a, b, link, token } = await crossInvite("administrator");
    const mailed = mail.sent.at(-1);
    expect(mailed?.subject).toBe(`Invitation to join ${b.account.name} on Parley`);
    expect(mailed?.text).toContain(b.admin.name);

    // Opening the link (as mail scanners do) changes nothing.
    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`Join ${b.account.name}`);
    expect(shown.text).toContain("an administrator");
    expect(shown.headers.get("content-security-policy")).toContain("form-action 'self'");
    expect(await findMembershipRow(b.account.id, a.agent.id)).toBeUndefined();

    const accepted = await page("/app/auth/invitation", { invitation_token: token });
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain(`Welcome to ${b.account.name}`);
    const membership = await findMembershipRow(b.account.id, a.agent.id);
    expect(membership?.role).toBe("administrator");
    expect(membership?.inviterId).toBe(b.admin.id);
    // The user's own record is untouched; their first account too.
    expect((await findUserRow(a.agent.id))?.name).toBe(a.agent.name);
    expect((await findMembershipRow(a.account.id, a.agent.id))?.role).toBe("agent");
    // Now the agent works in B with the token they already had.
    const inB = await api(`/api/v1/accounts/${b.account.id}/agents`, { token: a.agent.token });
    expect(inB.status).toBe(200);

    const twice = await page("/app/auth/invitation", { invitation_token: token });
    expect(twice.status).toBe(404);
    expect((await page(link)).status).toBe(404);
  });

  it("is no member before accepting, and the inviting admin cannot rename them", async () => {
    const { a, b } = await crossInvite();
    const before = await api(`/api/v1/accounts/${b.account.id}/conversations`, {
      token: a.agent.token,
    });
    expect(before.status).toBe(404);
    const rename = await api(`/api/v1/accounts/${b.account.id}/agents/${a.agent.id}`, {
      method: "PATCH",
      token: b.admin.token,
      body: { name: "Hijacked" },
    });
    expect(rename.status).toBe(404);
    expect((await findUserRow(a.agent.id))?.name).toBe(a.agent.name);
  });

  it("voids the older invitation when the admin invites again", async () => {
    const { a, b, token: first } = await crossInvite();
    await api(`/api/v1/accounts/${b.account.id}/agents`, {
      token: b.admin.token,
      body: { name: "Again", email: a.agent.email },
    });
    const second = new URL(`http://x${mail.linkTo(a.agent.email)}`).searchParams.get(
      "invitation_token",
    );
    expect(second).not.toBe(first);
    expect((await page("/app/auth/invitation", { invitation_token: first })).status).toBe(404);
    expect((await page("/app/auth/invitation", { invitation_token: second ?? "" })).status).toBe(
      200,
    );
    expect(await findMembershipRow(b.account.id, a.agent.id)).toBeDefined();
  });
});
