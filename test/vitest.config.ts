import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
          TYPING_TTL_MS: "400",
        },
      },
    })),
  ],
  test: {
    root,
    include: [
      "test/api/**/*.test.ts",
      "test/domain/**/*.test.ts",
      "test/contract/**/*.test.ts",
      "test/realtime/**/*.test.ts",
    ],
    setupFiles: ["test/setup/apply-migrations.ts"],
  },
});
