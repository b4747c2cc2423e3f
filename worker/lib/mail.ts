import type { Bindings } from "../env";

export type Mail = { to: string[]; subject: string; text: string };

/**
 * Email out of the service: automation's send_email_to_team and transcripts, invitations and
 * password links. The Workers `send_email` binding in production and under `wrangler dev`
 * (which only logs what it would send); tests hand in a recording implementation (STYLE §3.8).
 */
export type Mailer = { send(mail: Mail): Promise<void> };

type Log = (entry: Record<string, unknown>) => void;

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

/**
 * The sender of MAIL_FROM: `Name <address>` or a bare address; null when it is neither (empty
 * or unset included).
 */
export function parseMailFrom(
  raw: string | undefined,
): string | { name: string; email: string } | null {
  const text = raw?.trim() ?? "";
  const named = /^"?([^"<>]*?)"?\s*<([^<>]+)>$/.exec(text);
  const email = (named ? named[2] : text)?.trim() ?? "";
  if (!ADDRESS.test(email)) {
    return null;
  }
  const name = named?.[1]?.trim();
  return name ? { name, email } : email;
}

/**
 * Mail through the `EMAIL` binding, from MAIL_FROM. A sender that is missing or malformed is a
 * configuration error no retry can fix: the mail is logged and dropped, not thrown.
 */
export function bindingMailer(env: Bindings, log: Log = () => {}): Mailer {
  return {
    async send(mail) {
      const from = parseMailFrom(env.MAIL_FROM);
      if (from === null) {
        log({
          level: "warn",
          msg: "email not sent: MAIL_FROM is not a valid sender",
          mail_from: env.MAIL_FROM ?? null,
          subject: mail.subject,
        });
        return;
      }
      if (!env.EMAIL) {
        throw new Error("no send_email binding (EMAIL) is configured");
      }
      await env.EMAIL.send({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
