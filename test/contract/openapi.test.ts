import { describe, expect, it } from "vitest";
import { api } from "../support/http";

type Operation = { summary?: string; responses: Record<string, unknown>; security?: unknown };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe("/openapi.json", () => {
  it("is an OpenAPI 3.1 document listing the API families", async () => {
    const res = await api<Document>("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const paths = Object.keys(res.body.paths);
    expect(paths).toContain("/api/v1/accounts/{account_id}");
    expect(paths).toContain("/platform/api/v1/accounts/{id}");
  });

  it("gives every operation a summary, a success response and its error responses", async () => {
    const res = await api<Document>("/openapi.json");
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(res.body.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const codes = Object.keys(op.responses);
        if (!op.summary) {
          problems.push(`${method} ${path}: no summary`);
        }
        if (!codes.some((c) => c.startsWith("2") || c === "101")) {
          problems.push(`${method} ${path}: no 2xx`);
        }
        // An operation that declares no security (`security: []`, GET /api) takes no token.
        const noAuth = Array.isArray(op.security) && op.security.length === 0;
        const isPublic = path.startsWith("/public/") || path.startsWith("/files/") || noAuth;
        if (!isPublic && !codes.includes("401")) {
          problems.push(`${method} ${path}: no 401`);
        }
        if (!codes.includes("404")) {
          problems.push(`${method} ${path}: no 404`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("serves a human docs page at /docs", async () => {
    const res = await api<string>("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.body).toContain("/openapi.json");
  });
});
