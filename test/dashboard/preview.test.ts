import { describe, expect, it } from "vitest";
import { previewOf } from "../../dashboard/src/lib/format";
import { conversationOf, messageOf } from "./fixtures";

const withLast = (over: Parameters<typeof messageOf>[1]) =>
  conversationOf(1, { last_non_activity_message: messageOf(9, over) });

describe("the list's preview line", () => {
  it("shows a mention as @Name, not its markdown", () => {
    const note = withLast({
      message_type: 1,
      private: true,
      content:
        "Note for [@Alan Agent](mention://user/2/Alan%20Agent): call [@Support](mention://team/3/Support) back",
    });
    expect(previewOf(note)).toBe("Note: Note for @Alan Agent: call @Support back");
  });

  it("leaves other links and brackets as written", () => {
    const reply = withLast({
      message_type: 1,
      content: "[docs](https://example.com) and [@x](https://example.com/@x)",
    });
    expect(previewOf(reply)).toBe(
      "You: [docs](https://example.com) and [@x](https://example.com/@x)",
    );
    expect(previewOf(withLast({ content: "  hi  " }))).toBe("hi");
  });
});
