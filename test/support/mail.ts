import { env } from "cloudflare:test";
import { vi } from "vitest";

export type SentMail = { to: string[]; subject: string; text: string };

/**
 * Records what the Worker mails through the EMAIL binding instead of handing it to the local
 * simulation (which only logs it). Call `stop()` when done.
 */
export function recordMail() {
  const sent: SentMail[] = [];
  const spy = vi
    .spyOn(env.EMAIL as SendEmail, "send")
    .mockImplementation(async (message: unknown) => {
      sent.push(message as SentMail);
      return { messageId: `m${sent.length}` } as unknown as EmailSendResult;
    });
  const urlTo = (to: string): string => {
    const mail = sent.filter((m) => m.to.includes(to)).at(-1);
    const url = mail && /https?:\/\/\S+/.exec(mail.text)?.[0];
    if (!url) {
      throw new Error(`no link mailed to ${to}`);
    }
    return url;
  };
  return {
    sent,
    stop: () => spy.mockRestore(),
    /** The mailed link of the `to` address's latest mail, whole. */
    urlTo,
    /** The mailed link of the `to` address's latest mail, as a path with its query. */
    linkTo(to: string): string {
      const { pathname, search } = new URL(urlTo(to));
      return `${pathname}${search}`;
    },
  };
}
