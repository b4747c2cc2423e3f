// `npm run bench -- bundle`: the Worker's upload size against its budget.
import { BUDGET_BYTES, kib, measureBundle } from "../../scripts/bundle-size.mjs";

export async function main() {
  const { bytes, gzipBytes } = measureBundle();
  process.stdout.write(
    `worker bundle: ${kib(bytes)} (gzip ${kib(gzipBytes)}), budget ${kib(BUDGET_BYTES)}, ` +
      `${((bytes / BUDGET_BYTES) * 100).toFixed(0)}% used\n`,
  );
}
