import { env } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types, shared with `npm run reports:rebuild`.
import { rebuildStatements } from "../../scripts/reports-rebuild-sql.mjs";
import * as t from "../../worker/db/schema";
import {
  addInboxMember,
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
  createTeam,
  db,
} from "../support/factories";
import { createContact } from "../support/factories-conversations";
import { createLabel } from "../support/factories-teams";
import { asUser, at, clock, label, open, say, setStatus, weekdays } from "./world";

const facts = (accountId: number) =>
  db()
    .select({
      name: t.reportingEvents.name,
      value: t.reportingEvents.value,
      bh: t.reportingEvents.valueInBusinessHours,
      user: t.reportingEvents.userId,
      team: t.reportingEvents.teamId,
      at: t.reportingEvents.createdAt,
    })
    .from(t.reportingEvents)
    .where(eq(t.reportingEvents.accountId, accountId))
    .all()
    .then((rows) => rows.map((r) => JSON.stringify(r)).sort());

const rollups = (accountId: number) =>
  db()
    .select()
    .from(t.reportingRollups)
    .where(eq(t.reportingRollups.accountId, accountId))
    .orderBy(
      asc(t.reportingRollups.dimension),
      asc(t.reportingRollups.grain),
      asc(t.reportingRollups.metric),
      asc(t.reportingRollups.period),
      asc(t.reportingRollups.dimensionId),
    )
    .all();

it("reports:rebuild recomputes what the pipeline recorded, rollups included", async () => {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const agent = await createAgent(account.id);
  const team = await createTeam(account.id);
  const billing = await createLabel(account.id);
  const inbox = await createInbox(account.id, {
    timezone: "Europe/Paris",
    workingHoursEnabled: true,
    workingHours: weekdays(9, 18),
  });
  await addInboxMember(inbox.id, agent.id);
  const contact = await createContact(account.id);
  const [asAdmin, asAgent] = [await asUser(admin.id, "administrator"), await asUser(agent.id)];
  const A = account.id;
  // Thursday evening in Paris, answered Friday, asked again over the weekend, answered Monday.
  clock.now = at("2025-03-27T17:30:00Z");
  const c = await open(A, asAdmin, {
    inbox_id: inbox.id,
    contact_id: contact.id,
    assignee_id: agent.id,
    team_id: team.id,
  });
  await label(A, asAdmin, c.id, [billing.title]); // at creation: what a rebuild assumes
  clock.now = at("2025-03-28T08:15:00Z");
  await say(A, asAgent, c.id, "morning");
  await say(A, asAgent, c.id, "a note", { private: true });
  clock.now = at("2025-03-29T10:00:00Z");
  await say(A, asAdmin, c.id, "weekend question", { type: "incoming" });
  clock.now = at("2025-03-29T11:00:00Z");
  await say(A, asAdmin, c.id, "and another", { type: "incoming" });
  clock.now = at("2025-03-31T07:30:00Z"); // Monday 09:30 CEST (DST began on Sunday)
  await say(A, asAgent, c.id, "answer");
  clock.now = at("2025-03-31T08:00:00Z");
  await setStatus(A, asAgent, c.id, "resolved");

  const recorded = await facts(A);
  const recordedRollups = await rollups(A);
  // created, assigned, team assigned, labelled; 2 incoming, 2 outgoing (not the note); first
  // response, reply time, resolution.
  expect(recorded.length).toBe(11);
  // The reply ends the wait that began with Saturday's first question: 45.5 h, of which only
  // Monday 09:00–09:30 CEST are business hours.
  expect(recorded).toContain(
    JSON.stringify({
      name: "reply_time",
      value: 163_800,
      bh: 1800,
      user: agent.id,
      team: team.id,
      at: at("2025-03-31T07:30:00Z"),
    }),
  );

  const statements: string[] = rebuildStatements(A);
  await env.DB.batch(statements.map((s) => env.DB.prepare(s)));
  expect(await facts(A)).toEqual(recorded);
  // Label rollups differ by design: the pipeline counts a fact under the labels of that moment
  // (none yet when the conversation was created), a rebuild under today's labels.
  const unlabelled = (rows: typeof recordedRollups) => rows.filter((r) => r.dimension !== "label");
  expect(unlabelled(await rollups(A))).toEqual(unlabelled(recordedRollups));
  const labelled = (rows: typeof recordedRollups) =>
    rows.filter((r) => r.dimension === "label" && r.metric === "conversation_labelled");
  expect(labelled(await rollups(A))).toEqual(labelled(recordedRollups));
  expect(labelled(recordedRollups)).toHaveLength(4); // its hour, day, month and year
});
