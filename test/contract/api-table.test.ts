import { describe, expect, it } from "vitest";
import doc from "../../docs/api.md?raw";
import { type OpenApiDocument, renderApiTable, tableIn } from "../../scripts/api-table-render.mjs";
import { api } from "../support/http";

describe("docs/api.md", () => {
  it("lists every endpoint exactly as /openapi.json describes it", async () => {
    const res = await api<OpenApiDocument>("/openapi.json");
    expect(res.status).toBe(200);
    expect(
      tableIn(doc),
      "docs/api.md's endpoint table is stale; regenerate it: `npm start`, then `npm run docs:api`",
    ).toBe(renderApiTable(res.body));
  });
});
