import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { statusCountsByInbox } from "../../worker/modules/reports/queries.breakdowns";
import { createAccount, createInbox } from "../support/factories";
import { createContact } from "../support/factories-conversations";

const db = createDb(env.DB);
const H = 3600;
const DAY = 86_400;
const T0 = Date.UTC(2025, 2, 3) / 1000;
const STATUSES = ["open", "resolved", "pending", "snoozed"];

/** A small deterministic generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  let a = seed;
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const run = (sql: string, ...binds: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...binds)
    .run();

/** The summary's counts as the plain count over conversations would give them. */
async function direct(accountId: number, from: number, to: number) {
  const { results } = await env.DB.prepare(
    `SELECT inbox_id, status, COUNT(*) AS n FROM conversations
     WHERE account_id = ? AND created_at >= ? AND created_at < ? GROUP BY 1, 2 ORDER BY 1, 2`,
  )
    .bind(accountId, from, to)
    .all<{ inbox_id: number; status: string; n: number }>();
  return results.map((r) => [r.inbox_id, r.status, r.n]);
}

async function fromRollups(accountId: number, from: number, to: number) {
  const rows = await statusCountsByInbox(db, accountId, { from, to });
  return rows
    .map((r) => [r.inboxId, r.status, r.count])
    .sort((a, b) => Number(a[0]) - Number(b[0]) || String(a[1]).localeCompare(String(b[1])));
}

// The rollups are kept by triggers (migration 0034): whatever writes conversations, and however
// (a status change, a move to another inbox, a delete), the summary equals the plain count.
describe("channel summary rollups", () => {
  it("equal the conversations' own counts after creates, status and inbox changes and deletes", async () => {
    const account = await createAccount();
    const other = await createAccount();
    const inboxes = [await createInbox(account.id), await createInbox(account.id)];
    const contact = await createContact(account.id);
    const next = random(42);
    let displayId = 0;
    const ids: number[] = [];
    // 120 conversations over 10 days, at any second: edges, whole hours and whole days all hold some.
    for (let i = 0; i < 120; i++) {
      const created = T0 + next(10 * DAY);
      const inbox = inboxes[next(2)]?.id;
      const res = await run(
        `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, status,
          created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        account.id,
        ++displayId,
        crypto.randomUUID(),
        inbox,
        contact.id,
        STATUSES[next(4)],
        created,
        created,
        created,
      );
      ids.push(Number(res.meta.last_row_id));
    }
    // A neighbour's conversation, never counted.
    const otherInbox = await createInbox(other.id);
    const otherContact = await createContact(other.id);
    await run(
      `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, created_at,
        last_activity_at) VALUES (?, 1, ?, ?, ?, ?, 0)`,
      other.id,
      crypto.randomUUID(),
      otherInbox.id,
      otherContact.id,
      T0 + DAY,
    );
    for (const id of ids.slice(0, 40)) {
      await run("UPDATE conversations SET status = ? WHERE id = ?", STATUSES[next(4)], id);
    }
    for (const id of ids.slice(40, 50)) {
      await run("UPDATE conversations SET inbox_id = ? WHERE id = ?", inboxes[next(2)]?.id, id);
    }
    for (const id of ids.slice(50, 55)) {
      await run("UPDATE conversations SET created_at = created_at + ? WHERE id = ?", next(DAY), id);
    }
    // Updates that change none of the three leave the counts alone.
    await run("UPDATE conversations SET last_activity_at = last_activity_at + 1, status = status");
    for (const id of ids.slice(55, 65)) {
      await run("DELETE FROM conversations WHERE id = ?", id);
    }

    const spans: [number, number][] = [
      [T0, T0 + 11 * DAY],
      [T0 + 1800, T0 + 5 * DAY + 1800],
      [T0 + 2 * DAY, T0 + 2 * DAY + H],
      [T0 + 300, T0 + 900],
      [T0 + DAY - 1, T0 + DAY + 1],
    ];
    for (let i = 0; i < 25; i++) {
      const from = T0 + next(10 * DAY);
      spans.push([from, from + 1 + next(5 * DAY)]);
    }
    for (const [from, to] of spans) {
      const expected = await direct(account.id, from, to);
      expect(await fromRollups(account.id, from, to), `[${from}, ${to})`).toEqual(expected);
    }
    expect(
      (await direct(account.id, T0, T0 + 11 * DAY)).reduce((n, r) => n + Number(r[2]), 0),
    ).toBe(110);
  });

  it("leaves out an inbox whose conversations in the range are all gone", async () => {
    const account = await createAccount();
    const inbox = await createInbox(account.id);
    const contact = await createContact(account.id);
    await run(
      `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, created_at,
        last_activity_at) VALUES (?, 1, ?, ?, ?, ?, 0)`,
      account.id,
      crypto.randomUUID(),
      inbox.id,
      contact.id,
      T0 + DAY + 10,
    );
    expect(await fromRollups(account.id, T0, T0 + 3 * DAY)).toEqual([[inbox.id, "open", 1]]);
    await run("DELETE FROM conversations WHERE account_id = ?", account.id);
    expect(await fromRollups(account.id, T0, T0 + 3 * DAY)).toEqual([]);
  });
});
