import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Bindings } from "../../worker/env";
import type { LogFields } from "../../worker/lib/logger";
import { spanTimer } from "../../worker/lib/spans";
import { createAccount, createAdmin, createInbox } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { consume, outboxRows } from "../support/factories-webhooks";
import { postStored } from "../support/posted";

afterEach(() => vi.restoreAllMocks());

describe("spans of the work behind the acks (LOG_TIMINGS)", () => {
  it("logs nothing unless LOG_TIMINGS is 1", () => {
    const lines: LogFields[] = [];
    for (const value of [undefined, "", "0", "true", "yes"]) {
      spanTimer({ LOG_TIMINGS: value }, (l) => lines.push(l))("d1 transaction")({ messages: 3 });
    }
    expect(lines).toEqual([]);
  });

  it("with LOG_TIMINGS=1, a span is one timing line: its name, start, length and fields", () => {
    const lines: LogFields[] = [];
    const before = Date.now();
    spanTimer({ LOG_TIMINGS: "1" }, (l) => lines.push(l))("events batch")({ messages: 40 });
    expect(lines).toHaveLength(1);
    const [line] = lines as [LogFields];
    expect(line).toMatchObject({
      level: "info",
      msg: "timing",
      span: "events batch",
      messages: 40,
    });
    expect(line.at).toBeGreaterThanOrEqual(before);
    expect(line.ms).toBeGreaterThanOrEqual(0);
  });

  it("the queue consumer logs each batch as a span when on, and nothing when off", async () => {
    const account = await createAccount();
    const admin = await createAdmin(account.id);
    const inbox = await createInbox(account.id);
    const { conversation } = await createConversationIn(account.id, inbox.id);
    const path = `/api/v1/accounts/${account.id}/conversations/${conversation.displayId}/messages`;
    const after = (await outboxRows(account.id)).at(-1)?.id ?? 0;
    for (let i = 0; i < 3; i++) {
      expect(
        (await postStored(path, { token: admin.token, body: { content: `m${i}` } })).status,
      ).toBe(200);
    }
    const ids = (await outboxRows(account.id, after)).map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const bodies = ids.map((id) => ({ kind: "event" as const, id }));
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    const timings = () =>
      logged.mock.calls
        .map(([text]) => JSON.parse(String(text)) as LogFields)
        .filter((l) => l.msg === "timing");

    await consume(bodies, {}, { ...(env as Bindings), LOG_TIMINGS: undefined });
    expect(timings()).toEqual([]);

    await consume(bodies, {}, { ...(env as Bindings), LOG_TIMINGS: "1" });
    expect(timings()).toEqual([
      expect.objectContaining({ span: "events batch", messages: ids.length }),
    ]);
  });
});
