import { request, setToken, setUnauthorizedHandler } from "../lib/api";
import { signal } from "../lib/signal";
import type { Profile } from "../lib/types";

const KEY = "parley.app.token";

function stored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The signed-in user's access token: kept in this origin's localStorage, cleared on sign-out. */
export const token = signal<string | null>(stored());
export const profile = signal<Profile | null>(null);
setToken(token.peek());

function keep(value: string | null) {
  token.value = value;
  setToken(value);
  try {
    if (value) {
      localStorage.setItem(KEY, value);
    } else {
      localStorage.removeItem(KEY);
    }
  } catch {
    // private mode: the token lives as long as the page
  }
}

export async function signIn(email: string, password: string): Promise<Profile> {
  const body = await request<{ data: Profile }>("/auth/sign_in", {
    json: { email, password },
    token: null,
  });
  keep(body.data.access_token ?? null);
  profile.value = body.data;
  return body.data;
}

export async function loadProfile(): Promise<Profile> {
  const body = await request<Profile>("/api/v1/profile");
  profile.value = body;
  return body;
}

/** Forgets the token everywhere this app kept it; `reason` shows on the sign-in page. */
export const signOutReason = signal("");
export function signOut(reason = "") {
  keep(null);
  profile.value = null;
  signOutReason.value = reason;
}

setUnauthorizedHandler(() => signOut("Your session ended. Sign in again."));

/** Another tab signed out (or in): follow it. */
addEventListener("storage", (e) => {
  if (e.key === KEY && e.newValue !== token.peek()) {
    token.value = e.newValue;
    setToken(e.newValue);
    if (!e.newValue) {
      profile.value = null;
    }
  }
});

export const requestPasswordMail = (email: string) =>
  request("/auth/password", { json: { email }, token: null });

/**
 * A platform's one-time sign-in link (`/app/login#sso_auth_token=…`, docs/auth.md): the token
 * rides in the fragment, which browsers never send, and leaves the address bar before it is
 * used. Whoever was signed in here is replaced by the link's user.
 */
export async function signInWithLink(): Promise<void> {
  const found = /(?:^#|&)sso_auth_token=([^&]+)/.exec(location.hash);
  if (!found?.[1]) {
    return;
  }
  history.replaceState(history.state, "", location.pathname + location.search);
  keep(null);
  profile.value = null;
  try {
    const body = await request<{ data: Profile }>("/auth/sso", {
      json: { sso_auth_token: decodeURIComponent(found[1]) },
      token: null,
    });
    keep(body.data.access_token ?? null);
    profile.value = body.data;
  } catch {
    signOutReason.value = "This sign-in link is invalid or has expired.";
  }
}
