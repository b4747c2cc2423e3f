import { useState } from "preact/hooks";
import { ApiError } from "../lib/api";
import { go } from "../state/route";
import { requestPasswordMail, signIn, signOutReason } from "../state/session";

const problem = (err: unknown) =>
  err instanceof ApiError
    ? err.status === 401
      ? "That email and password do not match."
      : err.status === 429
        ? "Too many attempts. Wait a minute and try again."
        : err.message
    : "No connection to the server. Try again.";

export function SignIn() {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError("");
    try {
      const user = await signIn(String(form.get("email")), String(form.get("password")));
      signOutReason.value = "";
      const first = user.accounts[0];
      go(first ? `/accounts/${first.id}/conversations` : "/", true);
    } catch (err) {
      setError(problem(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="auth">
      <form class="card" onSubmit={submit}>
        <h1>Sign in to Parley</h1>
        {signOutReason.value && !error && <p class="note">{signOutReason.value}</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <button class="primary" type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <p>
          <a href="/app/forgot" onClick={link("/forgot")}>
            Forgot your password?
          </a>
        </p>
      </form>
    </main>
  );
}

export function Forgot() {
  const [sent, setSent] = useState(false);
  const [error, setError] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    try {
      await requestPasswordMail(String(form.get("email")));
      setSent(true);
    } catch (err) {
      setError(problem(err));
    }
  };
  return (
    <main class="auth">
      <form class="card" onSubmit={submit}>
        <h1>Choose a new password</h1>
        {sent ? (
          <p role="status">
            If that address has an account, a link to choose a new password is on its way. It works
            once, for 6 hours.
          </p>
        ) : (
          <>
            {error && (
              <p class="error" role="alert">
                {error}
              </p>
            )}
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="username" required />
            <button class="primary" type="submit">
              Mail me a link
            </button>
          </>
        )}
        <p>
          <a href="/app/login" onClick={link("/login")}>
            Back to sign in
          </a>
        </p>
      </form>
    </main>
  );
}

/** An in-app link: pushes the route instead of reloading (modifier clicks open a tab). */
export const link = (path: string) => (e: MouseEvent) => {
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) {
    return;
  }
  e.preventDefault();
  go(path);
};
