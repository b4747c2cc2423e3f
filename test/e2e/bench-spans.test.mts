import { describe, expect, it } from "vitest";
import { heldBack } from "../bench/realtime-spans.mjs";

// The realtime bench says which work behind the acks its slowest sends met (docs/realtime.md).
const steady = (n: number, slow: Record<number, number>) =>
  Array.from({ length: n }, (_, i) => ({ at: 10_000 + i * 10, ms: slow[i] ?? 2 }));

describe("the realtime bench's held-back count", () => {
  it("puts each send over the limit beside what it overlapped, a consumer batch first", () => {
    const sends = steady(100, { 5: 30, 20: 25, 50: 20, 70: 15 });
    const spans = [
      { span: "events batch", at: 10_052, ms: 10 }, // inside send 5 (10,050 to 10,080)
      { span: "d1 transaction", at: 10_055, ms: 2 }, // send 5 too: the batch counts
      { span: "d1 transaction", at: 10_190, ms: 12 }, // overlaps send 20 (10,200 to 10,225)
      { span: "d1 transaction", at: 10_495, ms: 3 }, // ends before send 50 starts
      { span: "events batch", at: 90_000, ms: 10 }, // long after the sends
    ];
    const h = heldBack(sends, spans, 10);
    expect(h).toMatchObject({ sends: 100, over: 4, consumer: 1, writer: 1, neither: 2 });
    expect(h.transactions).toEqual([2, 12, 3]);
    expect(h.batches).toEqual([10]);
    // The p99 of 100 is the 2nd slowest (summarize's pick): send 20, beside a transaction.
    expect(h.p99).toBe("writer");
  });

  it("counts nothing when no send passes the limit", () => {
    const h = heldBack(steady(50, {}), [{ span: "events batch", at: 10_000, ms: 600 }], 10);
    expect(h).toMatchObject({ over: 0, consumer: 0, writer: 0, neither: 0, p99: "consumer" });
  });
});
