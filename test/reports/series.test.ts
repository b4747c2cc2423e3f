import { beforeAll, describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import {
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
  createTeam,
  db,
} from "../support/factories";
import { api } from "../support/http";
import { at } from "./world";

const DAY = 86_400;
const LO = at("2025-02-20T00:00:00Z");
const HI = at("2025-04-12T00:00:00Z");
const NAMES = ["conversation_resolved", "first_response", "reply_time", "conversation_created"];

/** A deterministic generator: the same events and ranges on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

let token: string;
let accountId: number;
let subjects: { type: string; id?: number; match: (e: t.ReportingEventRow) => boolean }[];
let events: t.ReportingEventRow[];

// Reporting events written straight into the table (the trigger keeps the rollups, as for every
// writer), many near midnights and hour edges, with integer values so sums are exact.
beforeAll(async () => {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const x = await createAgent(account.id);
  const team = await createTeam(account.id);
  const inbox = await createInbox(account.id);
  token = admin.token;
  accountId = account.id;
  const rand = random(7);
  const rows: (typeof t.reportingEvents.$inferInsert)[] = [];
  for (let i = 0; i < 700; i++) {
    // A third land within 40 minutes of a UTC midnight (where local days at -5, +5:30 split
    // UTC hours and days), the rest anywhere.
    const day = LO + Math.floor(rand() * ((HI - LO) / DAY)) * DAY;
    const createdAt =
      i % 3 === 0 ? day + Math.floor((rand() - 0.5) * 4800) : LO + Math.floor(rand() * (HI - LO));
    rows.push({
      accountId: account.id,
      name: NAMES[i % NAMES.length] as string,
      value: 1 + Math.floor(rand() * 9000),
      valueInBusinessHours: Math.floor(rand() * 3000),
      inboxId: inbox.id,
      userId: i % 5 === 0 ? admin.id : x.id,
      teamId: i % 2 === 0 ? team.id : null,
      eventStartTime: createdAt - 60,
      eventEndTime: createdAt,
      createdAt,
    });
  }
  for (let i = 0; i < rows.length; i += 10) {
    await db()
      .insert(t.reportingEvents)
      .values(rows.slice(i, i + 10));
  }
  events = await db().select().from(t.reportingEvents).all();
  events = events.filter((e) => e.accountId === account.id);
  subjects = [
    { type: "account", match: () => true },
    { type: "agent", id: x.id, match: (e) => e.userId === x.id },
    { type: "team", id: team.id, match: (e) => e.teamId === team.id },
  ];
});

const METRICS = [
  ["resolutions_count", "conversation_resolved", false],
  ["avg_resolution_time", "conversation_resolved", true],
  ["avg_first_response_time", "first_response", true],
  ["reply_time", "reply_time", true],
  ["conversations_count", "conversation_created", false],
] as const;

describe("time series at any offset equal the raw events", () => {
  it.each([0, -5, 5.5, 5.75, -9.5, 9, 14, -12])(
    "timezone_offset=%s: every bucket, day/week/month, with business hours",
    async (tz) => {
      const offset = Math.round(tz * 3600);
      const rand = random(100_000 + offset);
      for (let i = 0; i < 12; i++) {
        const groupBy = (["day", "week", "month"] as const)[i % 3] as string;
        const [metric, fact, average] = METRICS[i % METRICS.length] as (typeof METRICS)[number];
        const subject = subjects[i % subjects.length] as (typeof subjects)[number];
        const bh = i % 4 === 3;
        // Ranges from hours to weeks, edges at arbitrary seconds (some on whole hours).
        let a = LO + Math.floor(rand() * (HI - LO - 10 * DAY));
        let b = a + 3600 + Math.floor(rand() * 40 * DAY);
        if (i % 2 === 0) {
          a -= a % 3600;
          b -= b % 3600;
        }
        const q =
          `reports?metric=${metric}&type=${subject.type}${subject.id ? `&id=${subject.id}` : ""}` +
          `&since=${a}&until=${b}&group_by=${groupBy}&timezone_offset=${tz}&business_hours=${bh}`;
        const res = await api(`/api/v2/accounts/${accountId}/${q}`, { token });
        expect(res.status, q).toBe(200);
        const buckets = res.body as { value: number; timestamp: number }[];
        // Buckets start at local midnight, the first at or before `since`, the rest inside.
        expect(buckets[0]?.timestamp, q).toBeLessThanOrEqual(a);
        for (const { timestamp } of buckets) {
          expect((((timestamp + offset) % DAY) + DAY) % DAY, q).toBe(0);
        }
        const expected = buckets.map((bucket, k) => {
          const end = buckets[k + 1]?.timestamp ?? b;
          const inBucket = events.filter(
            (e) =>
              e.name === fact &&
              subject.match(e) &&
              e.createdAt >= Math.max(a, bucket.timestamp) &&
              e.createdAt < Math.min(b, end),
          );
          if (!average) {
            return inBucket.length;
          }
          const total = inBucket.reduce((s, e) => s + (bh ? e.valueInBusinessHours : e.value), 0);
          return inBucket.length === 0 ? 0 : total / inBucket.length;
        });
        expect(
          buckets.map((x) => x.value),
          q,
        ).toEqual(expected);
      }
    },
  );
});
