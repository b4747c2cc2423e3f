// Issue 22 point 7: bots' and agents' interactive messages in the widget (happy-dom): each type
// renders real controls, an answer goes once through the public message update with Chatwoot's
// submitted_values, the message then shows answered (also as loaded again), and hostile labels
// and URLs stay inert.
import { fireEvent, screen, within } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../widget/src/app/api/types";
import { MessageList } from "../../widget/src/app/components/MessageList";
import { mergeMessages, messages } from "../../widget/src/app/state/conversation";
import { session } from "../../widget/src/app/state/session";
import { settings } from "../../widget/src/app/state/ui";
import { XSS_PAYLOADS } from "../e2e/help-center-xss-payloads.mjs";
import { fakeApi, inboxSettings, message, returningVisitor, settle, show } from "./support";

let view: ReturnType<typeof show> | undefined;

beforeEach(() => {
  returningVisitor();
  settings.value = inboxSettings({ greeting_enabled: false });
});

afterEach(() => {
  view?.cleanup();
  view = undefined;
  vi.unstubAllGlobals();
});

/** A prompt from the bot, and the API answering its update with the values stored. */
function prompt(content_type: string, content_attributes: Record<string, unknown>, id = 50) {
  const m = message({ id, seq: id, content: "Pick one", content_type, content_attributes });
  const calls = fakeApi((method, path, body) => {
    if (method === "PATCH") {
      return {
        ...m,
        content_attributes: {
          ...content_attributes,
          submitted_values: (body as { submitted_values: unknown }).submitted_values,
        },
      } satisfies Message;
    }
    return method === "POST" && path.includes("/update_last_seen") ? {} : {};
  });
  mergeMessages([m]);
  view = show(() => <MessageList />);
  return { m, calls };
}

const updates = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((c) => c.method === "PATCH" && c.path.includes("/messages/"));

describe("interactive messages", () => {
  it("input_select: buttons; one answer, sent once, then shown as chosen", async () => {
    const { calls } = prompt("input_select", {
      items: [
        { title: "Track my order", value: "track" },
        { title: "Return an item", value: "return" },
      ],
    });
    const choice = await screen.findByRole("button", { name: "Return an item" });
    fireEvent.click(choice);
    fireEvent.click(choice);
    await vi.waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]).toMatchObject({
      path: "/inboxes/inbox-1/contacts/src-1/conversations/9/messages/50",
      body: { submitted_values: [{ title: "Return an item", value: "return" }] },
    });
    await vi.waitFor(() =>
      expect(
        screen.getByRole("button", { name: "Return an item" }).getAttribute("aria-pressed"),
      ).toBe("true"),
    );
    expect(screen.getByRole("button", { name: "Track my order" }).hasAttribute("disabled")).toBe(
      true,
    );
    fireEvent.click(screen.getByRole("button", { name: "Track my order" }));
    await settle();
    expect(updates(calls)).toHaveLength(1);
  });

  it("form: labelled fields, native validation, submitted_values [{name, title, value}]", async () => {
    const { calls } = prompt("form", {
      items: [
        { name: "name", label: "Your name", type: "text", placeholder: "Ann" },
        { name: "email", label: "Email", type: "email", required: true },
        {
          name: "size",
          label: "Size",
          type: "select",
          options: [
            { label: "Small", value: "s" },
            { label: "Large", value: "l" },
          ],
        },
        { name: "note", label: "Anything else", type: "text_area" },
      ],
    });
    const email = (await screen.findByLabelText("Email")) as HTMLInputElement;
    expect(email.type).toBe("email");
    expect(email.required).toBe(true);
    fireEvent.input(screen.getByLabelText("Your name"), { target: { value: "Ann Lee" } });
    fireEvent.input(email, { target: { value: "ann@example.org" } });
    fireEvent.change(screen.getByLabelText("Size"), { target: { value: "l" } });
    fireEvent.input(screen.getByLabelText("Anything else"), { target: { value: "Gift wrap" } });
    fireEvent.submit(email.form as HTMLFormElement);
    await vi.waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.body).toEqual({
      submitted_values: [
        { name: "name", title: "Your name", value: "Ann Lee" },
        { name: "email", title: "Email", value: "ann@example.org" },
        { name: "size", title: "Size", value: "l" },
        { name: "note", title: "Anything else", value: "Gift wrap" },
      ],
    });
    // Answered: the fields show the answers, disabled, and the submit button is gone.
    await vi.waitFor(() => expect(screen.queryByRole("button", { name: "Submit" })).toBeNull());
    expect((screen.getByLabelText("Your name") as HTMLInputElement).value).toBe("Ann Lee");
    expect((screen.getByLabelText("Your name") as HTMLInputElement).disabled).toBe(true);
  });

  it("input_email: answers the message and sets the contact's email", async () => {
    const { calls } = prompt("input_email", {});
    const input = await screen.findByLabelText("Email");
    fireEvent.input(input, { target: { value: "ann@example.org" } });
    fireEvent.submit((input as HTMLInputElement).form as HTMLFormElement);
    await vi.waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.body).toEqual({
      submitted_values: [{ name: "email", title: "Email", value: "ann@example.org" }],
    });
    await vi.waitFor(() =>
      expect(
        calls.some((c) => c.method === "PATCH" && c.path === "/inboxes/inbox-1/contacts/src-1"),
      ).toBe(true),
    );
    expect(calls.find((c) => c.path === "/inboxes/inbox-1/contacts/src-1")?.body).toEqual({
      email: "ann@example.org",
    });
  });

  it("input_csat: a 1–5 rating and an optional comment, sent once, then thanked", async () => {
    const { calls } = prompt("input_csat", { display_type: "emoji" });
    const group = await screen.findByRole("group", { name: "Rate the conversation" });
    expect(within(group).getAllByRole("radio")).toHaveLength(5);
    fireEvent.click(within(group).getByRole("radio", { name: "Satisfied" }));
    fireEvent.input(screen.getByLabelText("Anything to add? (optional)"), {
      target: { value: "Quick and kind" },
    });
    const submit = screen.getByRole("button", { name: "Submit" });
    fireEvent.submit(submit.closest("form") as HTMLFormElement);
    fireEvent.submit(submit.closest("form") as HTMLFormElement);
    await vi.waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.body).toEqual({
      submitted_values: { csat_survey_response: { rating: 4, feedback_message: "Quick and kind" } },
    });
    await screen.findByText(/Thank you for your feedback/);
    expect(screen.queryByRole("radio")).toBeNull();
  });

  it("shows a prompt answered before (a reload) without asking again", async () => {
    fakeApi(() => ({}));
    mergeMessages([
      message({
        id: 60,
        seq: 60,
        content: "How did we do?",
        message_type: 3,
        sender: null,
        content_type: "input_csat",
        content_attributes: {
          submitted_values: { csat_survey_response: { rating: 5, feedback_message: null } },
        },
      }),
    ]);
    view = show(() => <MessageList />);
    await screen.findByText(/Very satisfied/);
    expect(screen.queryByRole("radio")).toBeNull();
    // No sender: the inbox itself speaks.
    expect(view.root.textContent).toContain("Acme");
  });

  it("cards and articles: http(s) links only, postbacks answer as the visitor", async () => {
    fakeApi(() => new Promise(() => {}));
    mergeMessages([
      message({
        id: 70,
        seq: 70,
        content_type: "cards",
        content_attributes: {
          items: [
            {
              title: "Blue mug",
              description: "Holds 350 ml",
              media_url: "javascript:alert(1)",
              actions: [
                { type: "link", text: "View", uri: "https://shop.example/mug" },
                { type: "link", text: "Bad", uri: "javascript:alert(1)" },
                { type: "postback", text: "Buy", payload: "BUY_MUG" },
              ],
            },
          ],
        },
      }),
      message({
        id: 71,
        seq: 71,
        content_type: "article",
        content_attributes: {
          items: [
            { title: "Returns", link: "https://help.example/returns" },
            { title: "Evil", link: "data:text/html,<script>alert(1)</script>" },
          ],
        },
      }),
    ]);
    view = show(() => <MessageList />);
    await screen.findByText("Blue mug");
    expect(screen.getByRole("link", { name: "View" }).getAttribute("href")).toBe(
      "https://shop.example/mug",
    );
    expect(screen.queryByRole("link", { name: "Bad" })).toBeNull();
    expect(screen.getByRole("link", { name: "Returns" }).getAttribute("rel")).toContain("noopener");
    expect(screen.queryByText("Evil")).toBeNull();
    expect(view.root.querySelector("img")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Buy" }));
    const { pending } = await import("../../widget/src/app/state/conversation");
    expect(pending.value.map((p) => p.content)).toEqual(["BUY_MUG"]);
  });

  it("keeps every XSS payload inert as labels, titles, options and URLs", async () => {
    fakeApi(() => new Promise(() => {}));
    const w = window as unknown as { __pwned?: () => void; alert: () => void };
    const pwned = vi.fn();
    w.__pwned = pwned;
    vi.stubGlobal("alert", pwned);
    mergeMessages(
      XSS_PAYLOADS.flatMap((p, i) => [
        message({
          id: 1000 + i * 3,
          seq: 1000 + i * 3,
          content: p,
          content_type: "input_select",
          content_attributes: { items: [{ title: p, value: p }] },
        }),
        message({
          id: 1001 + i * 3,
          seq: 1001 + i * 3,
          content: p,
          content_type: "form",
          content_attributes: {
            items: [{ name: p, label: p, type: p, placeholder: p, default: p }],
            button_label: p,
          },
        }),
        message({
          id: 1002 + i * 3,
          seq: 1002 + i * 3,
          content: p,
          content_type: "cards",
          content_attributes: {
            items: [
              {
                title: p,
                description: p,
                media_url: p,
                actions: [{ type: "link", text: p, uri: p }],
              },
            ],
          },
        }),
      ]),
    );
    view = show(() => <MessageList />);
    await vi.waitFor(() =>
      expect(view?.root.querySelectorAll(".pw-prompt").length).toBeGreaterThan(0),
    );
    await settle();
    const root = view.root;
    expect(root.querySelectorAll("script, iframe, object, embed, svg, style")).toHaveLength(0);
    for (const el of root.querySelectorAll("*")) {
      for (const attr of el.getAttributeNames()) {
        expect(attr.startsWith("on"), `${el.tagName} ${attr}`).toBe(false);
      }
    }
    for (const a of root.querySelectorAll("a[href], img[src]")) {
      expect(a.getAttribute("href") ?? a.getAttribute("src")).toMatch(/^https?:\/\//);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pwned).not.toHaveBeenCalled();
    // The payloads are there, as text.
    expect(root.textContent).toContain(XSS_PAYLOADS[0]);
    expect(messages.value.length).toBe(XSS_PAYLOADS.length * 3);
    expect(session.value?.conversationId).toBe(9);
  });
});
