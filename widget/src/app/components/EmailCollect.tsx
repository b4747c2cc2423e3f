import { useState } from "preact/hooks";
import { t } from "../i18n";
import { EMAIL } from "../lib/prechat";
import { saveEmail } from "../state/chat";

/** After the first message, inboxes with email collection ask where to reach the visitor. */
export function EmailCollect() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState(false);
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
          aria-invalid={error}
          aria-describedby={error ? "pw-email-error" : undefined}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <button type="submit" class="pw-button">
          {t("save")}
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
