import type { ContactInput } from "../api/types";

export type PreChatField = {
  key: "name" | "email" | "phone_number";
  required: boolean;
  label: string | null;
};

// Chatwoot's pre_chat_fields names for the contact's standard fields.
const STANDARD: Record<string, PreChatField["key"]> = {
  fullName: "name",
  emailAddress: "email",
  phoneNumber: "phone_number",
};

type RawField = { name?: unknown; enabled?: unknown; required?: unknown; label?: unknown };

/** The form an inbox asks for: Chatwoot's pre_chat_fields, or its older require_email flag. */
export function preChatForm(options: Record<string, unknown>): {
  intro: string | null;
  fields: PreChatField[];
} {
  const intro = typeof options.pre_chat_message === "string" ? options.pre_chat_message : null;
  if (!Array.isArray(options.pre_chat_fields)) {
    return {
      intro,
      fields: [
        { key: "name", required: false, label: null },
        { key: "email", required: options.require_email !== false, label: null },
      ],
    };
  }
  const fields = (options.pre_chat_fields as RawField[]).flatMap((f) => {
    const key = STANDARD[String(f?.name)];
    return key && f.enabled !== false
      ? [
          {
            key,
            required: f.required === true,
            label: typeof f.label === "string" ? f.label : null,
          },
        ]
      : [];
  });
  return { intro, fields };
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Field errors (by key) for the values entered; empty when the form may be sent. */
export function validatePreChat(
  fields: PreChatField[],
  values: ContactInput,
): Partial<Record<PreChatField["key"] | "message", "required" | "invalid_email">> {
  const errors: ReturnType<typeof validatePreChat> = {};
  for (const f of fields) {
    const value = (values[f.key] ?? "").trim();
    if (f.required && !value) {
      errors[f.key] = "required";
    } else if (f.key === "email" && value && !EMAIL.test(value)) {
      errors[f.key] = "invalid_email";
    }
  }
  return errors;
}
