import { render } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import type { Message } from "../../dashboard/src/lib/types";
import { MessageView } from "../../dashboard/src/ui/Message";
import { XSS_PAYLOADS } from "../e2e/help-center-xss-payloads.mts";

const message = (over: Partial<Message>): Message => ({
  id: 1,
  content: "hi",
  conversation_id: 1,
  message_type: 0,
  seq: 1,
  created_at: 1_700_000_000,
  private: false,
  status: "sent",
  content_type: "text",
  echo_id: null,
  ...over,
});

/** What a rendered message may contain: text, and the few elements the markdown subset builds. */
const ALLOWED = new Set(["UL", "LI", "DIV", "SPAN", "TIME", "A", "B", "I", "CODE", "IMG"]);

function inert(root: Element) {
  for (const el of root.querySelectorAll("*")) {
    expect(ALLOWED.has(el.tagName), el.outerHTML).toBe(true);
    for (const attr of el.attributes) {
      expect(attr.name.startsWith("on"), el.outerHTML).toBe(false);
      if (attr.name === "href" || attr.name === "src") {
        expect(attr.value, el.outerHTML).toMatch(/^(https?:\/\/|mailto:|\/[^/\\])/i);
      }
    }
  }
}

describe("message text: one sanitising path", () => {
  it("renders every XSS payload of the corpus as text, in every kind of message", () => {
    for (const payload of XSS_PAYLOADS) {
      for (const kind of [
        { message_type: 0 },
        { message_type: 1 },
        { message_type: 1, private: true },
        { message_type: 2 },
      ]) {
        const { container, unmount } = render(
          <ul>
            <MessageView
              m={message({
                ...kind,
                content: `${payload} [x](javascript:alert(1)) **${payload}**`,
                sender: { id: 1, name: payload, type: "contact" },
                attachments: [
                  {
                    id: 1,
                    file_type: "image",
                    data_url: "javascript:alert(1)",
                    thumb_url: payload,
                    file_size: 1,
                    fallback_title: payload,
                  },
                ],
              })}
              seen={false}
            />
          </ul>,
        );
        inert(container);
        expect(container.textContent).toContain(payload);
        unmount();
      }
    }
  });

  it("keeps agents' markdown subset and web links, with rel=noopener", () => {
    const { container } = render(
      <ul>
        <MessageView
          m={message({ message_type: 1, content: "**bold** see https://example.com/help" })}
          seen
        />
      </ul>,
    );
    expect(container.querySelector("b")?.textContent).toBe("bold");
    const a = container.querySelector("a");
    expect(a?.getAttribute("href")).toBe("https://example.com/help");
    expect(a?.getAttribute("rel")).toContain("noopener");
    expect(container.textContent).toContain("Seen");
  });

  it("shows a mention in a note as @Name, not its markdown", () => {
    const { container } = render(
      <ul>
        <MessageView
          m={message({
            message_type: 1,
            private: true,
            content: "Over to [@Alan Agent](mention://user/2/Alan%20Agent)",
          })}
          seen={false}
        />
      </ul>,
    );
    expect(container.querySelector(".text")?.textContent).toBe("Over to @Alan Agent");
  });

  it("marks a private note as one", () => {
    const { container } = render(
      <ul>
        <MessageView
          m={message({ message_type: 1, private: true, content: "internal" })}
          seen={false}
        />
      </ul>,
    );
    expect(container.querySelector(".note .tag")?.textContent).toBe("Private note");
  });
});
