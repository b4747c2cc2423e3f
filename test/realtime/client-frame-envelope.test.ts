import { describe, expect, it } from "vitest";
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
