import { describe, expect, it } from "vitest";
import { preChatForm, validatePreChat } from "../../widget/src/app/lib/prechat";

describe("pre-chat form", () => {
  it("reads Chatwoot's pre_chat_fields (enabled standard fields only)", () => {
    const form = preChatForm({
      pre_chat_message: "Who are you?",
      pre_chat_fields: [
        { name: "emailAddress", enabled: true, required: true, label: "Work email" },
        { name: "fullName", enabled: true, required: false },
        { name: "phoneNumber", enabled: false, required: true },
        { name: "plan", enabled: true, required: true },
      ],
    });
    expect(form).toEqual({
      intro: "Who are you?",
      fields: [
        { key: "email", required: true, label: "Work email" },
        { key: "name", required: false, label: null },
      ],
    });
  });

  it("falls back to name and a required email (Chatwoot's older require_email)", () => {
    expect(preChatForm({}).fields.map((f) => [f.key, f.required])).toEqual([
      ["name", false],
      ["email", true],
    ]);
    expect(preChatForm({ require_email: false }).fields[1]?.required).toBe(false);
  });

  it("requires required fields and a well-formed email", () => {
    const { fields } = preChatForm({});
    expect(validatePreChat(fields, {})).toEqual({ email: "required" });
    expect(validatePreChat(fields, { email: "nope" })).toEqual({ email: "invalid_email" });
    expect(validatePreChat(fields, { email: "ann@example.org" })).toEqual({});
  });
});
