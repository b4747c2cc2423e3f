import type { Bindings } from "../../env";

export type Mail = { to: string[]; subject: string; text: string };

/**
 * Email out of automation (send_email_to_team, send_email_transcript). The Workers `send_email`
 * binding in production and under `wrangler dev` (which only logs what it would send); tests
 * hand in a recording implementation (STYLE §3.8).
 */
export type Mailer = { send(mail: Mail): Promise<void> };

// TODO(#5): the sender address should come from configuration (a MAIL_FROM var).
export const MAIL_FROM = { name: "Parley", email: "notifications@example.com" };

export function bindingMailer(env: Bindings): Mailer {
  return {
    async send(mail) {
      if (!env.EMAIL) {
        throw new Error("no send_email binding (EMAIL) is configured");
      }
      await env.EMAIL.send({
        from: MAIL_FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
    },
  };
}
