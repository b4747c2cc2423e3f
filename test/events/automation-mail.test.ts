import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { Bindings } from "../../worker/env";
import { bindingMailer, parseMailFrom } from "../../worker/lib/mail";
import { createAutomationListener } from "../../worker/modules/automation-rules/listener";
import { createTeam, createWorld, db } from "../support/factories";
import { createRule, outboxEvent, recordingOutbound } from "../support/factories-automation";
import { createConversation } from "../support/factories-conversations";

/** An EMAIL binding that records what it is asked to send. */
function recordingBinding() {
  const sent: unknown[] = [];
  const binding = {
    async send(message: unknown) {
      sent.push(message);
      return { messageId: `m${sent.length}` };
    },
  };
  return { sent, binding: binding as unknown as SendEmail };
}

const mail = { to: ["agent@example.com"], subject: "[Acme] Conversation #1", text: "Look" };

describe("MAIL_FROM", () => {
  it("reads a named sender or a bare address", () => {
    expect(parseMailFrom("Parley <notifications@parley.local>")).toEqual({
      name: "Parley",
      email: "notifications@parley.local",
    });
    expect(parseMailFrom(' "Support Team" <help@example.com> ')).toEqual({
      name: "Support Team",
      email: "help@example.com",
    });
    expect(parseMailFrom("<help@example.com>")).toBe("help@example.com");
    expect(parseMailFrom("ops@example.com")).toBe("ops@example.com");
  });

  it.each([
    undefined,
    "",
    "   ",
    "Parley",
    "Parley <>",
    "Parley <not an address>",
    "ops@localhost",
    "a@example.com, b@example.com",
    "Parley <ops@example.com> trailing",
  ])("refuses %j", (raw) => {
    expect(parseMailFrom(raw)).toBeNull();
  });

  it("is configured in wrangler.toml, and the mail goes out from it", async () => {
    expect(env.MAIL_FROM).toBe("Parley <notifications@parley.local>");
    const email = recordingBinding();
    await bindingMailer({ ...env, EMAIL: email.binding }).send(mail);
    expect(email.sent).toEqual([
      {
        from: { name: "Parley", email: "notifications@parley.local" },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      },
    ]);
  });

  it.each(["", "not-an-address"])(
    "%j: logs and skips the mail instead of throwing",
    async (from) => {
      const email = recordingBinding();
      const logged: Record<string, unknown>[] = [];
      const mailer = bindingMailer({ ...env, MAIL_FROM: from, EMAIL: email.binding }, (e) =>
        logged.push(e),
      );
      await expect(mailer.send(mail)).resolves.toBeUndefined();
      expect(email.sent).toEqual([]);
      expect(logged).toEqual([
        expect.objectContaining({ level: "warn", mail_from: from, subject: mail.subject }),
      ]);
    },
  );

  it("send_email_to_team skips its mail and the rule goes on when MAIL_FROM is unset", async () => {
    const w = await createWorld();
    const team = await createTeam(w.account.id);
    await db().insert(t.teamMembers).values({ teamId: team.id, userId: w.agent.id });
    const conversation = await createConversation(w.account.id, w.inbox.id);
    await createRule(w.account.id, {
      conditions: [],
      actions: [
        {
          action_name: "send_email_to_team",
          action_params: [{ team_ids: [team.id], message: "x" }],
        },
        { action_name: "add_label", action_params: ["after-mail"] },
      ],
    });
    const email = recordingBinding();
    const logged: Record<string, unknown>[] = [];
    const { MAIL_FROM: _unset, ...rest } = env;
    const unconfigured: Bindings = { ...rest, EMAIL: email.binding };
    await createAutomationListener({ log: (e) => logged.push(e) })(
      outboxEvent("conversation_created", conversation),
      {
        env: unconfigured,
        db: db(),
        now: () => Math.floor(Date.now() / 1000),
        outbound: recordingOutbound().outbound,
      },
    );
    expect(email.sent).toEqual([]);
    expect(logged).toEqual([expect.objectContaining({ level: "warn", mail_from: null })]);
    const labels = await db()
      .select()
      .from(t.conversationLabels)
      .where(eq(t.conversationLabels.conversationId, conversation.id))
      .all();
    expect(labels.map((l) => l.title)).toEqual(["after-mail"]);
  });
});
