import { afterEach, describe, expect, it, vi } from "vitest";
import { profile, signInWithLink, signOutReason, token } from "../../dashboard/src/state/session";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => {
  vi.unstubAllGlobals();
  history.replaceState(null, "", "/app");
});

describe("a platform's sign-in link (#sso_auth_token=…)", () => {
  it("drops the token from the address bar, exchanges it and keeps the new session", async () => {
    history.replaceState(null, "", "/app/login#sso_auth_token=AbC123");
    let sent: { url: string; body: unknown; hash: string } | undefined;
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      sent = { url, body: JSON.parse(String(init.body)), hash: location.hash };
      return json(200, { data: { id: 7, access_token: "tok-7", accounts: [] } });
    });
    await signInWithLink();
    expect(sent?.url).toBe("/auth/sso");
    expect(sent?.body).toEqual({ sso_auth_token: "AbC123" });
    expect(sent?.hash).toBe(""); // gone before the request left
    expect(location.pathname).toBe("/app/login");
    expect(token.value).toBe("tok-7");
    expect(profile.value?.id).toBe(7);
  });

  it("says so when the link no longer works, signed out", async () => {
    history.replaceState(null, "", "/app/login#sso_auth_token=used");
    vi.stubGlobal("fetch", async () =>
      json(422, { error: "This link is invalid or has expired", code: "validation_failed" }),
    );
    await signInWithLink();
    expect(token.value).toBeNull();
    expect(signOutReason.value).toMatch(/invalid or has expired/);
    expect(location.hash).toBe("");
  });

  it("does nothing without a link", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    await signInWithLink();
    expect(fetch).not.toHaveBeenCalled();
  });
});
