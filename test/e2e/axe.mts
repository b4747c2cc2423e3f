// axe-core in a page or frame: every violation of any impact, as one readable line each. axe is
// evaluated through the DevTools protocol, which a page's CSP does not govern, so pages keep
// their real policy (a script tag would need the CSP bypassed).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Violation = { id: string; impact: string; nodes: unknown[] };

/** axe's violations in a page or frame, as "rule (impact) at target: summary". */
export async function violations(target: Page | Frame): Promise<string[]> {
  await target.evaluate(AXE);
  const found = (await target.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (c: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document)) as { violations: Violation[] };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      where: (v.nodes as { target: string[]; failureSummary?: string }[])
        .map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`)
        .join(" | "),
    }));
  })) as { id: string; impact: string; where: string }[];
  return found.map((v) => `${v.id} (${v.impact}) at ${v.where}`);
}
