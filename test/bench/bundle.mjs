// `npm run bench -- bundle`: the Worker's upload size against its budget.
import {
  BUDGET_BYTES,
  DEPENDENCY_BUDGET_BYTES,
  kib,
  measureBundle,
} from "../../scripts/bundle-size.mjs";

export async function main() {
  const { bytes, gzipBytes, dependencyBytes } = measureBundle();
  const used = (n, budget) => `${((n / budget) * 100).toFixed(0)}% used`;
  process.stdout.write(
    `worker bundle: ${kib(bytes)} (gzip ${kib(gzipBytes)}), budget ${kib(BUDGET_BYTES)}, ` +
      `${used(bytes, BUDGET_BYTES)}; dependencies ${kib(dependencyBytes)}, ` +
      `budget ${kib(DEPENDENCY_BUDGET_BYTES)}, ${used(dependencyBytes, DEPENDENCY_BUDGET_BYTES)}\n`,
  );
}
