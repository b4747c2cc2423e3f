import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ApiError } from "../../worker/lib/errors";
import {
  MAX_CONTENT_LENGTH,
  MessageCreateJsonSchema,
  PublicMessageCreateSchema,
} from "../../worker/modules/messages/schema.requests";
import { parseFields } from "../../worker/modules/socket-actions/send";
import { ClientFrameSchema, parseClientFrame } from "../../worker/realtime/protocol";

/** What the schema answers for `raw`: the frame it keeps, or that it refuses it. */
const bySchema = (raw: unknown) => {
  const r = ClientFrameSchema.safeParse(raw);
  return r.success ? { ok: r.data } : { refused: true };
};
const byParser = (raw: unknown) => {
  try {
    return { ok: parseClientFrame(raw) };
  } catch {
    return { refused: true };
  }
};

const FRAMES: unknown[] = [
  { type: "message.create", echo_id: "e1", content: "hi" },
  { type: "message.create", echo_id: "e1" },
  { type: "message.create", echo_id: "e1", content: null, private: "yes", extra: 1 },
  {
    type: "message.create",
    echo_id: "x".repeat(255),
    content: { nested: [1, 2] },
    content_type: "input_select",
    content_attributes: { items: [] },
    private: true,
  },
  { type: "message.create", echo_id: "x".repeat(256), content: "too long an echo" },
  { type: "message.create", echo_id: "", content: "blank echo" },
  { type: "message.create", echo_id: 7, content: "numeric echo" },
  { type: "message.create", content: "no echo" },
  { type: "typing", on: true },
  { type: "typing", on: "yes" },
  { type: "resume", after: 3 },
  { type: "ping", pad: 1 },
  { type: "read" },
  { type: "nope" },
  ["message.create"],
  null,
  "message.create",
  42,
];

describe("a client frame's envelope", () => {
  it("is what the schema makes of it, message frames (checked by hand) included", () => {
    for (const raw of FRAMES) {
      expect(byParser(raw), JSON.stringify(raw)).toEqual(bySchema(raw));
    }
  });

  it("keeps a message frame's own fields and drops the rest", () => {
    const raw = JSON.parse('{"type":"message.create","echo_id":"e","content":"c","x":1}');
    const parsed = parseClientFrame(raw);
    expect(parsed).toEqual({ type: "message.create", echo_id: "e", content: "c" });
    expect(Object.keys(parsed)).toEqual(["type", "echo_id", "content"]);
  });
});

describe("a message frame's fields", () => {
  const BODIES: Record<string, unknown>[] = [
    { echo_id: "e", content: "plain" },
    { echo_id: "e" },
    { content: "no echo" },
    { echo_id: "e", content: null },
    { echo_id: "e", content: "x".repeat(MAX_CONTENT_LENGTH) },
    { echo_id: "e", content: "x".repeat(MAX_CONTENT_LENGTH + 1) },
    { echo_id: "x".repeat(256), content: "long echo" },
    { echo_id: "e", content: 7 },
    { echo_id: "e", content: { text: "object" } },
    { echo_id: "e", content: "c", private: "true" },
    { echo_id: "e", content: "c", content_type: "cards", content_attributes: '{"items":[]}' },
    { echo_id: "e", content: "c", content_type: "nope" },
    {},
  ];
  /** What `parseFields` answers: the fields kept, or the HTTP API's 422. */
  const byFields = (schema: z.ZodType, body: Record<string, unknown>) => {
    try {
      return { ok: parseFields(schema, body) };
    } catch (err) {
      return { refused: (err as ApiError).code };
    }
  };
  const bySchemaOf = (schema: z.ZodType, body: unknown) => {
    const r = schema.safeParse(body);
    return r.success ? { ok: r.data } : { refused: "validation_failed" };
  };

  it("are what each route's schema keeps, plain text (checked by hand) included", () => {
    for (const schema of [MessageCreateJsonSchema, PublicMessageCreateSchema]) {
      for (const body of BODIES) {
        const label = JSON.stringify(body).slice(0, 80);
        expect(byFields(schema, body), label).toEqual(bySchemaOf(schema, body));
      }
    }
  });
});
