// Issue 22 point 8: no inert settings. Every field an account, inbox (and its channel) or agent
// update accepts either acts (named here with where it is read: a rule in the worker, or the
// widget, which reads the public inbox settings) or is listed in docs/automation.md as stored
// only, with why. A new field that is neither fails here, as does a listed reader that no longer
// reads it, or a stored-only field missing from that list.
import { describe, expect, it } from "vitest";
import { AccountUpdateSchema } from "../../worker/modules/accounts/schema";
import { AgentUpdateSchema } from "../../worker/modules/agents/schema";
import { InboxUpdateSchema } from "../../worker/modules/inboxes/schema";

const sources = {
  ...import.meta.glob<string>("../../worker/**/*.ts", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
  ...import.meta.glob<string>("../../widget/src/**/*.{ts,tsx}", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
};
const docs = import.meta.glob<string>("../../docs/automation.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const storedOnlyDoc = Object.values(docs)[0] ?? "";

/** Where a field acts: a file (from the repository root) and what in it reads the field. */
type Reader = [file: string, reads: string];
type Field = { acts: Reader[] } | { storedOnly: true };

const acts = (...readers: Reader[]): Field => ({ acts: readers });
const storedOnly: Field = { storedOnly: true };

/** The widget reads the public inbox settings in many places: any of its files will do. */
const WIDGET = "widget/src/";

const ACCOUNT: Record<string, Field> = {
  name: acts(["worker/modules/agents/service.ts", "account.name"]),
  auto_resolve_after: acts(["worker/modules/schedule/consumer.ts", "auto_resolve_after"]),
  auto_resolve_message: acts(["worker/modules/schedule/consumer.ts", "auto_resolve_message"]),
  auto_resolve_ignore_waiting: acts([
    "worker/modules/schedule/consumer.ts",
    "auto_resolve_ignore_waiting",
  ]),
  locale: storedOnly,
  domain: storedOnly,
  support_email: storedOnly,
  industry: storedOnly,
  company_size: storedOnly,
  timezone: storedOnly,
};

const TEMPLATES = "worker/modules/templates/listener.ts";
const INBOX: Record<string, Field> = {
  name: acts(["worker/modules/csat/queries.ts", "inboxes.name"]),
  avatar_url: acts([WIDGET, "avatar_url"]),
  greeting_enabled: acts([TEMPLATES, "greetingEnabled"]),
  greeting_message: acts([TEMPLATES, "greetingMessage"]),
  enable_auto_assignment: acts(["worker/modules/assignment/service.ts", "enableAutoAssignment"]),
  auto_assignment_config: acts(["worker/modules/assignment/service.ts", "autoAssignmentConfig"]),
  enable_email_collect: acts([TEMPLATES, "enableEmailCollect"]),
  csat_survey_enabled: acts(["worker/modules/csat/service.ts", "csatSurveyEnabled"]),
  timezone: acts([TEMPLATES, "inbox.timezone"], [WIDGET, "timezone"]),
  working_hours_enabled: acts([TEMPLATES, "workingHoursEnabled"]),
  out_of_office_message: acts([TEMPLATES, "outOfOfficeMessage"]),
  working_hours: acts([TEMPLATES, "workingHours"], [WIDGET, "working_hours"]),
  allow_messages_after_resolved: storedOnly,
  lock_to_single_conversation: storedOnly,
  business_name: storedOnly,
  channel: acts(["worker/modules/inboxes/service.ts", "channel"]),
};

const CHANNEL: Record<string, Field> = {
  webhook_url: acts(["worker/modules/webhooks/listeners.ts", "webhookUrl"]),
  hmac_mandatory: acts(["worker/modules/contacts/sessions.ts", "hmacMandatory"]),
  widget_color: acts([WIDGET, "widget_color"]),
  welcome_title: acts([WIDGET, "welcome_title"]),
  welcome_tagline: acts([WIDGET, "welcome_tagline"]),
  reply_time: acts([WIDGET, "reply_time"]),
  pre_chat_form_enabled: acts([WIDGET, "pre_chat_form_enabled"]),
  pre_chat_form_options: acts([WIDGET, "pre_chat_form_options"]),
  website_url: storedOnly,
  additional_attributes: storedOnly,
};

const AGENT: Record<string, Field> = {
  name: acts(["worker/modules/conversations/activity.ts", "user.name"]),
  role: acts(["worker/http/middleware/require-role.ts", "role"]),
  availability_status: acts(["worker/modules/agents/presence.ts", "availability"]),
  availability: acts(["worker/modules/agents/presence.ts", "availability"]),
  auto_offline: acts(["worker/modules/agents/presence.ts", "autoOffline"]),
};

/** The keys a zod object (behind preprocess/pipe wrappers) accepts. */
function keysOf(schema: unknown): string[] {
  let s = schema as { shape?: Record<string, unknown>; def?: Record<string, unknown> };
  for (let i = 0; i < 10 && !s.shape; i++) {
    const def = s.def ?? {};
    s = (def.out ?? def.schema ?? def.innerType ?? def.in) as typeof s;
  }
  return Object.keys(s.shape ?? {});
}

const channelKeys = () => {
  const inbox = InboxUpdateSchema as unknown as {
    def: { out: { shape: Record<string, unknown> } };
  };
  return keysOf(inbox.def.out.shape.channel);
};

/** The text of `file`, or for a folder (ending in /) the texts of its files joined. */
const sourceOf = (file: string) =>
  file.endsWith("/")
    ? Object.entries(sources)
        // Type declarations name every field; only code that uses one counts.
        .filter(([name]) => name.startsWith(`../../${file}`) && !/types\.ts$|\.d\.ts$/.test(name))
        .map(([, text]) => text)
        .join("\n") || undefined
    : sources[`../../${file}`];

describe("no inert settings: every settable field acts or is documented as stored only", () => {
  const cases = [
    ["account", ACCOUNT, keysOf(AccountUpdateSchema)],
    ["inbox", INBOX, keysOf(InboxUpdateSchema)],
    ["inbox channel", CHANNEL, channelKeys()],
    ["agent", AGENT, keysOf(AgentUpdateSchema)],
  ] as const;

  for (const [what, table, accepted] of cases) {
    it(`${what}: every accepted field is classified, and every classified one is accepted`, () => {
      expect(accepted.length).toBeGreaterThan(3);
      expect([...accepted].sort()).toEqual(Object.keys(table).sort());
    });

    it(`${what}: a field that acts is read where it says, outside presenters and schemas`, () => {
      for (const [field, how] of Object.entries(table)) {
        if (!("acts" in how)) {
          continue;
        }
        for (const [file, reads] of how.acts) {
          expect(file, field).not.toMatch(/presenter|schema/);
          const text = sourceOf(file);
          expect(text, `${field}: ${file} is gone`).toBeDefined();
          expect(text?.includes(reads), `${field}: ${file} no longer reads ${reads}`).toBe(true);
        }
      }
    });

    it(`${what}: a stored-only field is listed with its reason in docs/automation.md`, () => {
      const section = storedOnlyDoc.split("## Stored only")[1] ?? "";
      for (const [field, how] of Object.entries(table)) {
        if ("storedOnly" in how) {
          expect(section, `${what} ${field} is not in the stored-only list`).toMatch(
            new RegExp(`\\| ${what} \\| \`${field}\` \\| .{10,}`),
          );
        }
      }
    });
  }
});
