import { describe, expect, it } from "vitest";
import {
  clampJson,
  findJsonViolation,
  JSON_LIMITS,
  parseStoredJson,
} from "../../worker/lib/json-bounds";

const nest = (depth: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < depth; i++) {
    v = { a: v };
  }
  return v;
};

describe("JSON bounds", () => {
  it("finds the first violation with its path, at any depth, without recursing", () => {
    expect(findJsonViolation(nest(16))).toBeNull();
    expect(findJsonViolation(undefined)).toBeNull();
    expect(findJsonViolation(nest(17))?.path).toEqual(Array(16).fill("a"));
    expect(findJsonViolation(nest(100_000))?.message).toMatch(/deep/);
    expect(findJsonViolation({ list: [1, { s: "x".repeat(10_001) }] })?.path).toEqual([
      "list",
      1,
      "s",
    ]);
    const wide = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]));
    expect(findJsonViolation({ wide })?.path).toEqual(["wide"]);
    const many = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [
        `o${i}`,
        Object.fromEntries(Array.from({ length: 190 }, (_, j) => [`k${j}`, j])),
      ]),
    );
    expect(findJsonViolation(many)?.message).toMatch(/1000 in all/);
    const big = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`k${i}`, "x".repeat(9_000)]),
    );
    expect(findJsonViolation(big)?.message).toMatch(/Too large/);
  });

  it("clamps stored values to the bounds and leaves values within them equal", () => {
    const ok = {
      a: [1, "two", null, true, { b: { c: [] } }],
      s: "x".repeat(10_000),
      n: nest(15),
      big: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'é"'.repeat(2_000)])),
    };
    expect(findJsonViolation(ok)).toBeNull();
    expect(clampJson(ok)).toEqual(ok);
    for (const bad of [
      nest(100_000),
      { s: "x".repeat(50_000) },
      Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
    ]) {
      const clamped = clampJson(bad);
      expect(
        findJsonViolation(clamped, { ...JSON_LIMITS, totalSize: JSON_LIMITS.totalSize + 20_000 }),
      ).toBeNull();
    }
    const deepText = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    expect(findJsonViolation(parseStoredJson(deepText))).toBeNull();
    expect(parseStoredJson("not json")).toEqual({});
    expect(parseStoredJson("[1]")).toEqual({});
  });
});
