// The handlers the Worker registers at load (worker/wiring.ts), for tests that call the
// consumer, the sweep or a service directly.
import "../../worker/wiring";
import { applyD1Migrations, env } from "cloudflare:test";

// Idempotent: applyD1Migrations records what it applied.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
