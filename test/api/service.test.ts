import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Deps } from "../../worker/events/deps";
import { createLogger } from "../../worker/lib/logger";
import { dataServicesStatus } from "../../worker/modules/health/service";
import { api } from "../support/http";

type Operation = { summary?: string; security?: unknown[]; responses: Record<string, unknown> };

// Chatwoot's GET /api (ApiController#index): what Chatwoot tools (n8n's credential test) call.
describe("GET /api", () => {
  it("answers Chatwoot's version and service health, without credentials", async () => {
    const res = await api("/api");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: env.SERVICE_VERSION ?? "dev",
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      queue_services: "ok",
      data_services: "ok",
    });
    const at = Date.parse(`${res.body.timestamp.replace(" ", "T")}Z`);
    expect(Math.abs(at - Date.now())).toBeLessThan(60_000);
  });

  it("ignores a stray or invalid token and answers on the trailing-slash path too", async () => {
    const withToken = await api("/api", { token: "not-a-token" });
    expect(withToken.status).toBe(200);
    expect(withToken.body.data_services).toBe("ok");
    const slash = await api("/api/");
    expect(slash.status).toBe(200);
    expect(slash.body.queue_services).toBe("ok");
  });

  it("is in /openapi.json with its schema and no security", async () => {
    const res = await api<{
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>("/openapi.json");
    const op = res.body.paths["/api"]?.get;
    expect(op?.summary).toBeTruthy();
    expect(op?.security).toEqual([]);
    expect(op?.responses).toHaveProperty("200");
    expect(JSON.stringify(op?.responses["200"])).toContain("#/components/schemas/ServiceHealth");
    expect(Object.keys(res.body.components.schemas.ServiceHealth?.properties ?? {})).toEqual([
      "version",
      "timestamp",
      "queue_services",
      "data_services",
    ]);
  });

  it("reports data_services failing when D1 does not answer", async () => {
    const lines: unknown[] = [];
    const broken = {
      db: {
        get: () => Promise.reject(new Error("D1_ERROR: no such database")),
      },
      log: createLogger({}, (line) => lines.push(line)),
    } as unknown as Deps;
    expect(await dataServicesStatus(broken)).toBe("failing");
    expect(lines).toHaveLength(1);
  });
});
