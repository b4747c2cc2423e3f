import { t } from "../i18n";
import { EMAIL } from "../lib/prechat";
import { saveEmail } from "../state/chat";
import { signal } from "../state/signal";
import { emailDismissed } from "../state/ui";

/** After the first message, inboxes with email collection ask where to reach the visitor. */
const typed = signal("");
const invalid = signal(false);

export function EmailCollect() {
  const email = typed.value;
  const error = invalid.value;
  const setEmail = (value: string) => {
    typed.value = value;
  };
  const setError = (value: boolean) => {
    invalid.value = value;
  };
  return (
    <form
      class="pw-email"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const ok = EMAIL.test(email.trim());
        setError(!ok);
        if (ok) {
          void saveEmail(email.trim()).catch(() => setError(true));
        }
      }}
    >
      <label for="pw-email">{t("email_ask")}</label>
      <div>
        <input
          id="pw-email"
          type="email"
          autoComplete="email"
          value={email}
          placeholder="you@example.com"
          aria-invalid={error}
          aria-describedby={error ? "pw-email-error" : undefined}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <button type="submit" class="pw-button">
          {t("save")}
        </button>
        <button type="button" class="pw-link" onClick={() => (emailDismissed.value = true)}>
          {t("not_now")}
        </button>
      </div>
      {error && (
        <p id="pw-email-error" class="pw-error">
          {t("invalid_email")}
        </p>
      )}
    </form>
  );
}
