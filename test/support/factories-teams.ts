import * as t from "../../worker/db/schema";
import { db, unique } from "./factories";

/** A team member row, straight through drizzle. */
export async function addTeamMember(teamId: number, userId: number) {
  await db().insert(t.teamMembers).values({ teamId, userId });
}

export async function createLabel(
  accountId: number,
  values: Partial<typeof t.labels.$inferInsert> = {},
) {
  const [label] = await db()
    .insert(t.labels)
    .values({ accountId, title: unique("label").toLowerCase(), ...values })
    .returning();
  if (!label) {
    throw new Error("label not created");
  }
  return label;
}
