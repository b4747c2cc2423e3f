import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import type { WorkingHour } from "../../worker/db/schema";
import * as t from "../../worker/db/schema";
import { createDeps } from "../../worker/events/deps";
import type { PerformedBy } from "../../worker/events/types";
import type { Actor } from "../../worker/modules/access-tokens/service";
import { createConversation } from "../../worker/modules/conversations/service";
import { assign, toggleStatus } from "../../worker/modules/conversations/service.actions";
import { setLabels } from "../../worker/modules/conversations/service.labels";
import { createMessage } from "../../worker/modules/messages/service";
import "../../worker/wiring";
import { db } from "../support/factories";

/** Scripted time for the scenario: every service call runs at `clock.now`. */
export const clock = { now: 0 };
export const at = (iso: string) => Date.parse(iso) / 1000;

type Who = { actor: Actor; role: "administrator" | "agent" | "bot"; by: PerformedBy };

export const asUser = async (
  id: number,
  role: "administrator" | "agent" = "agent",
): Promise<Who> => {
  const user = await db().select().from(t.users).where(eq(t.users.id, id)).get();
  if (!user) {
    throw new Error("no user");
  }
  return { actor: { kind: "user", user }, role, by: { type: "user", id } };
};

export const asBot = async (id: number): Promise<Who> => {
  const bot = await db().select().from(t.agentBots).where(eq(t.agentBots.id, id)).get();
  if (!bot) {
    throw new Error("no bot");
  }
  return { actor: { kind: "bot", bot }, role: "bot", by: { type: "agent_bot", id } };
};

export const asAutomation = (ruleId: number): Who => ({
  actor: { kind: "automation", ruleId },
  role: "administrator",
  by: { type: "automation_rule", id: ruleId },
});

/** A service scope at the scripted time; live frames and the outbox relay run on flush. */
async function scoped<T>(accountId: number, who: Who, run: (scope: any) => Promise<T>) {
  const account = await db().select().from(t.accounts).where(eq(t.accounts.id, accountId)).get();
  const deps = createDeps(env, { now: () => clock.now, performedBy: who.by });
  const result = await run({ deps, account, actor: who.actor, role: who.role, origin: "" });
  await deps.events.flush();
  return result;
}

const reload = (id: number) =>
  db()
    .select()
    .from(t.conversations)
    .where(eq(t.conversations.id, id))
    .get() as Promise<t.ConversationRow>;

export const open = (accountId: number, who: Who, input: Record<string, unknown>) =>
  scoped(accountId, who, (s) => createConversation(s, input as never));

export const say = async (
  accountId: number,
  who: Who,
  conversationId: number,
  content: string,
  opts: { type?: "incoming" | "outgoing"; private?: boolean; attrs?: Record<string, unknown> } = {},
) =>
  scoped(accountId, who, async (s) =>
    createMessage(s, await reload(conversationId), {
      content,
      messageType: opts.type ?? "outgoing",
      private: opts.private,
      contentAttributes: opts.attrs,
    }),
  );

export const setStatus = (
  accountId: number,
  who: Who,
  conversationId: number,
  status: t.ConversationStatus,
) => scoped(accountId, who, async (s) => toggleStatus(s, await reload(conversationId), { status }));

export const reassign = (
  accountId: number,
  who: Who,
  conversationId: number,
  input: { assignee_id?: number | null; team_id?: number | null },
) => scoped(accountId, who, async (s) => assign(s, await reload(conversationId), input));

export const label = (accountId: number, who: Who, conversationId: number, titles: string[]) =>
  scoped(accountId, who, async (s) => setLabels(s, await reload(conversationId), titles));

export const weekdays = (open: number, close: number): WorkingHour[] =>
  [0, 1, 2, 3, 4, 5, 6].map((d) => ({
    day_of_week: d,
    closed_all_day: d === 0 || d === 6,
    open_all_day: false,
    open_hour: open,
    open_minutes: 0,
    close_hour: close,
    close_minutes: 0,
  }));
