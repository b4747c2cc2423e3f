import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import preact from "@preact/preset-vite";
import { defineConfig, defineProject } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * expect.poll waits up to 20 s (vitest's default is 1 s, which a loaded machine overruns while
 * a message is stored): a margin that only delays a failure (docs/testing.md, "Time in tests").
 */
const expectOptions = { poll: { timeout: 20_000 } };

/** The Worker's suites: inside workerd, against a real local D1. */
const worker = defineProject({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
          TYPING_TTL_MS: "400",
          PRESENCE_GRACE_MS: "300",
          // Mailed links are built on it alone; a host other than the tests' own (parley.test),
          // so a link that followed the request's Host would show.
          PUBLIC_URL: "https://chat.parley.test",
          // Frame budgets do not refill here: a burst is limited however slowly the machine
          // delivers it (docs/testing.md, "Time in tests").
          FRAME_REFILL_PER_SECOND: "0",
        },
        // Tests drive the queue consumer themselves (createMessageBatch), with a recording
        // outbound: what the Worker sends goes to queues nobody consumes here.
        queueProducers: {
          EVENTS: { queueName: "parley-events-test-sink" },
          EVENTS_DLQ: { queueName: "parley-events-test-dlq" },
          TIMED: { queueName: "parley-timed-test-sink" },
        },
      },
    })),
  ],
  test: {
    name: "worker",
    expect: expectOptions,
    root,
    include: [
      "test/api/**/*.test.ts",
      "test/domain/**/*.test.ts",
      "test/contract/**/*.test.ts",
      "test/events/**/*.test.ts",
      "test/realtime/**/*.test.ts",
      "test/reports/**/*.test.ts",
      "test/help-center/**/*.test.ts",
    ],
    setupFiles: ["test/setup/apply-migrations.ts"],
    // Margins for a loaded 2-core machine (vitest's 5 s default is not one): a timeout only
    // stops a test that hangs, it never decides a verdict (docs/testing.md).
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

/** The widget's components and stores, in happy-dom. */
const widget = defineProject({
  plugins: [preact({ prerender: { enabled: false } })],
  test: {
    name: "widget",
    expect: expectOptions,
    root,
    environment: "happy-dom",
    // Nothing leaves the process: happy-dom loads no iframe page (its default), quietly.
    environmentOptions: {
      happyDOM: {
        url: "https://shop.example/",
        settings: { handleDisabledFileLoadingAsSuccess: true },
      },
    },
    include: ["test/widget/**/*.test.tsx"],
    testTimeout: 30_000,
  },
});

/** The agents' app (dashboard/): its stores and components, in happy-dom. */
const dashboard = defineProject({
  plugins: [preact({ prerender: { enabled: false } })],
  test: {
    name: "dashboard",
    expect: expectOptions,
    root,
    environment: "happy-dom",
    environmentOptions: {
      happyDOM: {
        url: "https://parley.example/app/",
        settings: { handleDisabledFileLoadingAsSuccess: true },
      },
    },
    include: ["test/dashboard/**/*.test.{ts,tsx}"],
    testTimeout: 30_000,
  },
});

/**
 * The widget in headless Chromium against a real `wrangler dev`, plus the size budgets of the
 * production build (npm test builds it first). Its own group (sequence.groupOrder), so the
 * browser tests never share the CPU with the workerd suites.
 */
const e2e = defineProject({
  test: {
    name: "e2e",
    expect: expectOptions,
    root,
    environment: "node",
    include: ["test/e2e/**/*.test.mts"],
    globalSetup: ["test/e2e/global-setup.mts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    sequence: { groupOrder: 1 },
  },
});

/**
 * Two test files at a time at least (vitest's default on a 2-core machine is one): each file
 * gets its own workerd (no state is shared between files), and much of a file's start is
 * spent waiting on the other process, so a second file fills the idle core.
 */
const maxWorkers = Math.max(2, availableParallelism() - 1);

export default defineConfig({ test: { maxWorkers, projects: [worker, widget, dashboard, e2e] } });
