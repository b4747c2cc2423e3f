import type { ContactInput } from "../api/types";
import { Header } from "../components/Header";
import { t } from "../i18n";
import { preChatForm, validatePreChat } from "../lib/prechat";
import { submitPreChat } from "../state/chat";
import { signal } from "../state/signal";
import { settings } from "../state/ui";

// The form's state, in signals (one form at a time; no preact/hooks in the bundle).
const typedValues = signal<ContactInput>({});
const typedMessage = signal("");
const shownErrors = signal<Record<string, string>>({});

const TYPES = { name: "text", email: "email", phone_number: "tel" } as const;
const LABELS = { name: "name", email: "email", phone_number: "phone" } as const;
const AUTOCOMPLETE = { name: "name", email: "email", phone_number: "tel" } as const;

/** Name / email (as the inbox asks) and the first message, before the conversation starts. */
export function PreChatForm() {
  const form = preChatForm(settings.value?.pre_chat_form_options ?? {});
  const values = typedValues.value;
  const message = typedMessage.value;
  const errors = shownErrors.value;
  const setValues = (v: ContactInput) => {
    typedValues.value = v;
  };
  const setMessage = (v: string) => {
    typedMessage.value = v;
  };
  const setErrors = (v: Record<string, string>) => {
    shownErrors.value = v;
  };

  const submit = (e: Event) => {
    e.preventDefault();
    // What was typed up to now, not as of the last render (a submit can come before it).
    const values = typedValues.value;
    const message = typedMessage.value;
    const found: Record<string, string> = validatePreChat(form.fields, values);
    if (!message.trim()) {
      found.message = "required";
    }
    setErrors(found);
    if (Object.keys(found).length === 0) {
      submitPreChat(values, message);
    }
  };

  const field = (key: string, label: string, control: preact.JSX.Element) => (
    <div class="pw-field">
      <label for={`pw-${key}`}>{label}</label>
      {control}
      {errors[key] && (
        <p id={`pw-${key}-error`} class="pw-error">
          {t(errors[key] as "required" | "invalid_email")}
        </p>
      )}
    </div>
  );
  const aria = (key: string) => ({
    id: `pw-${key}`,
    "aria-invalid": Boolean(errors[key]),
    "aria-describedby": errors[key] ? `pw-${key}-error` : undefined,
  });

  return (
    <>
      <Header />
      <form class="pw-prechat" noValidate onSubmit={submit}>
        <p>{form.intro || t("prechat_intro")}</p>
        {form.fields.map((f) =>
          field(
            f.key,
            `${f.label || t(LABELS[f.key])}${f.required ? " *" : ""}`,
            <input
              {...aria(f.key)}
              type={TYPES[f.key] as "text"}
              autoComplete={AUTOCOMPLETE[f.key]}
              required={f.required}
              value={values[f.key] ?? ""}
              onInput={(e) => setValues({ ...typedValues.value, [f.key]: e.currentTarget.value })}
            />,
          ),
        )}
        {field(
          "message",
          `${t("message")} *`,
          <textarea
            {...aria("message")}
            rows={3}
            dir="auto"
            required
            value={message}
            onInput={(e) => setMessage(e.currentTarget.value)}
          />,
        )}
        <button type="submit" class="pw-button">
          {t("start")}
        </button>
      </form>
    </>
  );
}
