/**
 * Chatwoot's message variables (@chatwoot/utils getMessageVariables / replaceVariablesInMessage,
 * which its dashboard applies to a canned response before inserting it): `{{contact.name}}`,
 * `{{agent.first_name}}` (the conversation's assignee), `{{contact.custom_attribute.plan}}`…
 * An unknown or empty variable becomes "", as there. Pure: the values are given, nothing runs.
 */
export type VariableSource = {
  conversation: { displayId: number; customAttributes: Record<string, unknown> };
  contact: {
    id: number;
    name: string;
    email: string | null;
    phoneNumber: string | null;
    customAttributes: Record<string, unknown>;
  } | null;
  assignee: { name: string; email: string } | null;
};

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? "";
const lastName = (name: string) => {
  const parts = name.trim().split(/\s+/);
  return parts.length > 1 ? (parts[parts.length - 1] ?? "") : "";
};

const scalar = (value: unknown) =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : "";

export function messageVariables(src: VariableSource): Map<string, string> {
  const vars = new Map<string, string>();
  const { contact, assignee, conversation } = src;
  vars.set("conversation.id", String(conversation.displayId));
  vars.set("contact.id", contact ? String(contact.id) : "");
  vars.set("contact.name", contact?.name ?? "");
  vars.set("contact.first_name", firstName(contact?.name ?? ""));
  vars.set("contact.last_name", lastName(contact?.name ?? ""));
  vars.set("contact.email", contact?.email ?? "");
  vars.set("contact.phone", contact?.phoneNumber ?? "");
  vars.set("agent.name", assignee?.name ?? "");
  vars.set("agent.first_name", firstName(assignee?.name ?? ""));
  vars.set("agent.last_name", lastName(assignee?.name ?? ""));
  vars.set("agent.email", assignee?.email ?? "");
  for (const [key, value] of Object.entries(contact?.customAttributes ?? {})) {
    vars.set(`contact.custom_attribute.${key}`, scalar(value));
  }
  for (const [key, value] of Object.entries(conversation.customAttributes)) {
    vars.set(`conversation.custom_attribute.${key}`, scalar(value));
  }
  return vars;
}

const VARIABLE = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** `content` with each `{{name}}` replaced by its value ("" when unknown). */
export const expandVariables = (content: string, vars: ReadonlyMap<string, string>) =>
  content.replace(VARIABLE, (_, name: string) => vars.get(name.toLowerCase()) ?? "");
