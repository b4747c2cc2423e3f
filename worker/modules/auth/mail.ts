import type { Mail } from "../../lib/mail";

/**
 * The mails of the sign-in flows, plain text. Nothing from the invited user's record goes into
 * a mail to anyone else, and the mail to the user names only who invited them and where.
 */

export const newAgentMail = (
  to: string,
  p: { accountName: string; inviterName: string; url: string },
): Mail => ({
  to: [to],
  subject: `You have been added to ${p.accountName} on Parley`,
  text: [
    `${p.inviterName} added you as an agent of ${p.accountName} on Parley.`,
    "",
    "Choose your password to sign in (the link works once, for 7 days):",
    p.url,
  ].join("\n"),
});

export const joinAccountMail = (
  to: string,
  p: { accountName: string; inviterName: string; url: string },
): Mail => ({
  to: [to],
  subject: `Invitation to join ${p.accountName} on Parley`,
  text: [
    `${p.inviterName} invited you to join ${p.accountName} on Parley.`,
    "",
    "Accept the invitation here (the link works once, for 7 days):",
    p.url,
    "",
    "If you did not expect this, ignore this mail: nothing changes until you accept.",
  ].join("\n"),
});

export const resetMail = (to: string, url: string): Mail => ({
  to: [to],
  subject: "Reset your Parley password",
  text: [
    "Someone asked to reset the password of your Parley account.",
    "",
    "Choose a new password here (the link works once, for 6 hours):",
    url,
    "",
    "If it was not you, ignore this mail: your password stays as it is.",
  ].join("\n"),
});
