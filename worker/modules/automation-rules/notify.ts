import { loopbackAllowed, publicUrlProblem } from "../../lib/public-url";
import { conversationWebhookData } from "../conversations/views";
import { pageMessages } from "../messages/queries";
import { loadSenders, senderKey } from "../messages/senders";
import { createMessage } from "../messages/service";
import { listMembers } from "../teams/queries";
import { enqueueDeliveries } from "../webhooks/dispatch";
import { bodyFor } from "../webhooks/payloads";
import { writeDeliveries } from "../webhooks/queries";
import { emailList, type TeamEmail } from "./actions";
import type { ActionContext } from "./context";
import { accountAttachments, accountTeamIds } from "./queries";

/**
 * Chatwoot parity (send_webhook_event): the conversation's webhook data plus
 * `event: "automation_event.<event_name>"`, to the rule's URL. It goes out as a delivery of the
 * webhooks module (10 s per attempt, retried, logged, unsigned: the rule has no secret); a
 * re-run of the same event finds the delivery already made.
 */
export async function postWebhookEvent(ctx: ActionContext, [url]: unknown[]) {
  const { deps } = ctx.scope;
  if (!ctx.rule) {
    throw new Error("send_webhook_event: only an automation rule sends it");
  }
  const { row: rule, eventId } = ctx.rule;
  const problem = publicUrlProblem(String(url), loopbackAllowed(deps.env));
  if (problem) {
    throw new Error(`send_webhook_event: url ${problem}`);
  }
  const name = `automation_event.${rule.eventName}`;
  const data = await conversationWebhookData(deps.db, ctx.conversation, deps.origin);
  const at = deps.now();
  const unsent = await writeDeliveries(deps.db, eventId, [
    {
      accountId: rule.accountId,
      targetType: "automation",
      targetId: rule.id,
      eventId,
      event: name,
      deliveryId: crypto.randomUUID(),
      url: String(url),
      body: bodyFor(name, data),
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    },
  ]);
  await enqueueDeliveries(deps.env, unsent);
}

/** Chatwoot parity (send_email_to_team): one email per team, to its members. */
export async function emailTeams(ctx: ActionContext, [param]: unknown[]) {
  const { deps, account } = ctx.scope;
  const { team_ids: teamIds, message } = param as TeamEmail;
  const teams = await accountTeamIds(deps.db, account.id, teamIds.map(Number));
  const { displayId } = ctx.conversation;
  for (const teamId of teams) {
    const members = await listMembers(deps.db, account.id, teamId);
    if (members.length === 0) {
      continue;
    }
    await ctx.mailer.send({
      to: members.map((m) => m.user.email),
      subject: `[${account.name}] Conversation #${displayId}`,
      text: `${message}\n\nConversation #${displayId} in ${account.name}.`,
    });
  }
}

const TRANSCRIPT_LIMIT = 500;

/** Chatwoot parity (send_email_transcript): the public chat, oldest first, to each address. */
export async function emailTranscript(ctx: ActionContext, [addresses]: unknown[]) {
  const { deps, account } = ctx.scope;
  const to = emailList(addresses);
  if (!to) {
    throw new Error("send_email_transcript: no valid address");
  }
  const rows = (await pageMessages(deps.db, ctx.conversation.id, {}, TRANSCRIPT_LIMIT)).filter(
    (m) => !m.private && (m.messageType === 0 || m.messageType === 1),
  );
  const senders = await loadSenders(deps.db, rows);
  const lines = rows.map((m) => {
    const key = senderKey(m);
    const name = (key && senders.get(key)?.name) || (m.messageType === 0 ? "Contact" : "Agent");
    const at = new Date(m.createdAt * 1000).toISOString();
    return `[${at}] ${name}: ${m.content ?? "(attachment)"}`;
  });
  await ctx.mailer.send({
    to,
    subject: `[${account.name}] Conversation Transcript #${ctx.conversation.displayId}`,
    text: lines.join("\n") || "(no messages)",
  });
}

/** Chatwoot parity (send_attachment): one outgoing message carrying the account's files. */
export async function sendAttachments(ctx: ActionContext, ids: unknown[]) {
  const { deps, account } = ctx.scope;
  const rows = await accountAttachments(deps.db, account.id, ids.map(Number));
  const files: File[] = [];
  for (const row of rows) {
    const object = await deps.env.FILES.get(row.storageKey);
    if (object) {
      files.push(new File([await object.arrayBuffer()], row.fileName, { type: row.contentType }));
    }
  }
  if (files.length === 0) {
    throw new Error("send_attachment: none of the files is stored");
  }
  await createMessage(ctx.scope, ctx.conversation, {
    content: null,
    messageType: "outgoing",
    files,
    contentAttributes: ctx.messageAttributes,
    idempotencyKey: ctx.key,
  });
}
