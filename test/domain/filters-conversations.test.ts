import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { ApiError } from "../../worker/lib/errors";
import { compileFilter } from "../../worker/modules/filters/compile";
import { conversationFilterFields } from "../../worker/modules/filters/conversation-fields";
import type { CustomDefinition } from "../../worker/modules/filters/types";
import { createAccount, createInbox, db } from "../support/factories";
import { createContact } from "../support/factories-contacts";

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const NOW = Date.parse("2024-04-01T10:00:00Z");

const c = (key: unknown, op: unknown, values?: unknown, q?: unknown) => ({
  attribute_key: key,
  filter_operator: op,
  values,
  query_operator: q,
});

function refused(payload: unknown, path: string, defs: CustomDefinition[] = []) {
  try {
    compileFilter(payload, conversationFilterFields, defs, { nowMs: NOW });
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).details.map((d) => d.path)).toEqual([path]);
    return;
  }
  throw new Error(`expected a 422 for ${JSON.stringify(payload)}`);
}

describe("conversation filter fields", () => {
  it("compares equal_to against every value with IN, and status all matches any", async () => {
    const acc = await createAccount();
    const inbox = await createInbox(acc.id);
    const contact = await createContact(acc.id);
    const rows = [
      { status: "open", additionalAttributes: { browser_language: "en" } },
      { status: "resolved", priority: "high", additionalAttributes: { referer: "https://x.io/a" } },
      {
        status: "snoozed",
        customAttributes: { order_total: 120, region: "EU" },
        additionalAttributes: { mail_subject: "Refund please" },
        createdAt: at("2024-03-30T12:00:00Z"),
      },
    ] as const;
    const conversationIds: number[] = [];
    for (const [i, row] of rows.entries()) {
      const [conv] = await db()
        .insert(t.conversations)
        .values({
          accountId: acc.id,
          displayId: i + 1,
          uuid: crypto.randomUUID(),
          inboxId: inbox.id,
          contactId: contact.id,
          lastActivityAt: at("2024-03-01T00:00:00Z"),
          ...row,
        })
        .returning();
      conversationIds.push(conv?.id ?? 0);
    }
    await db()
      .insert(t.conversationLabels)
      .values([
        { conversationId: conversationIds[0] as number, title: "billing" },
        { conversationId: conversationIds[2] as number, title: "refund" },
      ]);
    const defs: CustomDefinition[] = [
      { attributeKey: "order_total", attributeDisplayType: "number" },
      { attributeKey: "region", attributeDisplayType: "list" },
    ];
    const run = async (payload: unknown) => {
      const where = compileFilter(payload, conversationFilterFields, defs, { nowMs: NOW });
      const found = await db()
        .select({ displayId: t.conversations.displayId })
        .from(t.conversations)
        .where(and(eq(t.conversations.accountId, acc.id), where))
        .orderBy(asc(t.conversations.displayId))
        .all();
      return found.map((r) => r.displayId);
    };
    expect(await run([c("status", "equal_to", ["open", "resolved"])])).toEqual([1, 2]);
    expect(await run([c("status", "not_equal_to", ["open", "resolved"])])).toEqual([3]);
    expect(await run([c("status", "equal_to", ["all"])])).toEqual([1, 2, 3]);
    expect(await run([c("display_id", "equal_to", ["2", 3])])).toEqual([2, 3]);
    expect(await run([c("priority", "is_present")])).toEqual([2]);
    expect(await run([c("assignee_id", "is_not_present")])).toEqual([1, 2, 3]);
    expect(await run([c("browser_language", "equal_to", ["EN"])])).toEqual([1]);
    expect(await run([c("referer", "contains", ["x.io"])])).toEqual([2]);
    expect(await run([c("inbox_id", "equal_to", [inbox.id])])).toEqual([1, 2, 3]);
    expect(await run([c("labels", "equal_to", ["billing", "refund"])])).toEqual([1, 3]);
    expect(await run([c("labels", "is_not_present")])).toEqual([2]);
    expect(await run([c("order_total", "is_greater_than", ["100"])])).toEqual([3]);
    expect(await run([c("region", "not_equal_to", ["eu", "us"])])).toEqual([1, 2]);
    expect(await run([c("mail_subject", "contains", ["REFUND"])])).toEqual([3]);
    expect(await run([c("created_at", "is_less_than", ["2024-03-31"])])).toEqual([3]);
    expect(
      await run([c("status", "equal_to", ["open"], "or"), c("labels", "equal_to", ["refund"])]),
    ).toEqual([1, 3]);
    refused([c("status", "equal_to", ["closed"])], "payload.0.values");
    refused([c("order_total", "contains", ["1"])], "payload.0.filter_operator", defs);
    refused([c("inbox_id", "equal_to", ["1.5"])], "payload.0.values");
    refused([c("email", "equal_to", ["x"])], "payload.0.attribute_key");
  });
});
