// Issue 24: what the widget's interactive messages look like (input_select, form, cards,
// input_email and the CSAT survey sent on resolve), compared against the baselines committed in
// docs/widget/controls-*.png: desktop and phone, light and dark. Each picture is the message's
// own box in the chat, so the rest of the conversation (greetings, times) is not part of it.
// `UPDATE_SCREENSHOTS=1` rewrites the baselines after a deliberate change.
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { accountCall, bubble, chat } from "./harness.mts";
import { createWidgetInbox } from "./help-world.mts";
import { expectLook, LOOKS, newVisitor, openChat, useBrowser } from "./look-support.mts";

const base = inject("parleyBase");
const call = accountCall(base);

useBrowser();

/** The prompts an agent or bot sends, as Chatwoot's content_attributes shape them. */
const PROMPTS = [
  {
    name: "select",
    content: "What can we help with?",
    content_type: "input_select",
    content_attributes: {
      items: [
        { title: "Track my order", value: "track" },
        { title: "Return an item", value: "return" },
        { title: "Something else", value: "other" },
      ],
    },
  },
  {
    name: "form",
    content: "A few details, please",
    content_type: "form",
    content_attributes: {
      items: [
        { name: "order", label: "Order number", type: "text", placeholder: "#1042" },
        {
          name: "reason",
          label: "Reason",
          type: "select",
          options: [
            { label: "Damaged", value: "damaged" },
            { label: "Wrong size", value: "size" },
          ],
        },
        { name: "note", label: "Anything else?", type: "text_area" },
      ],
    },
  },
  {
    name: "cards",
    content: "Our most popular",
    content_type: "cards",
    content_attributes: {
      items: [
        {
          title: "Rain jacket",
          description: "Light, packable, fully taped seams.",
          actions: [{ type: "link", text: "View", uri: "https://shop.example/jacket" }],
        },
      ],
    },
  },
  {
    name: "email",
    content: "Where can we reach you?",
    content_type: "input_email",
    content_attributes: {},
  },
] as const;

/** Where `item` is, once two reads 100 ms apart agree (the list has stopped moving). */
async function settledBox(item: Locator) {
  let last = "";
  for (;;) {
    const box = await item.boundingBox();
    if (box && JSON.stringify(box) === last) {
      return box;
    }
    last = JSON.stringify(box);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Page coordinates of the chat's message that says `text`, once its controls are drawn. */
async function boxOf(page: Page, text: string) {
  const item = chat(page).locator("li.pw-msg", { hasText: text }).last();
  await item.locator(".pw-prompt").waitFor();
  await item.scrollIntoViewIfNeeded();
  return clipOf(await settledBox(item));
}

function clipOf(box: { x: number; y: number; width: number; height: number }) {
  return {
    x: Math.floor(box.x),
    y: Math.floor(box.y),
    width: Math.ceil(box.width),
    height: Math.ceil(box.height),
  };
}

describe("the widget's interactive messages (docs/widget/controls-*.png)", () => {
  for (const [look, options] of LOOKS) {
    it(`input_select, form, cards, input_email and the CSAT survey: ${look}`, async () => {
      const inbox = await createWidgetInbox(base, `Controls ${look}`, [["Ann Lee", "online"]]);
      // Only the visitor's line and the prompts below: no greeting or email request of the
      // inbox's own arriving at its own pace and moving the messages.
      await call("PATCH", `/inboxes/${inbox.id}`, {
        csat_survey_enabled: true,
        greeting_enabled: false,
        enable_email_collect: false,
      });
      const v = await newVisitor({ ...options, url: `${base}/demo?inbox=${inbox.identifier}` });
      await openChat(v.page);
      const input = chat(v.page).locator("textarea");
      await input.fill("Hello, I need help with an order");
      await input.press("Enter");
      await bubble(v.page, "Hello, I need help with an order").waitFor();
      await expect.poll(() => chat(v.page).locator(".pw-pending").count()).toBe(0);
      const list = await call("GET", `/conversations?status=all&inbox_id=${inbox.id}`);
      const id = Math.max(...(list.data.payload as { id: number }[]).map((c) => c.id));
      for (const { name, ...message } of PROMPTS) {
        await call("POST", `/conversations/${id}/messages`, {
          ...message,
          message_type: "outgoing",
        });
        await expectLook(v.page, `controls-${name}-${look}`, await boxOf(v.page, message.content));
      }
      await call("POST", `/conversations/${id}/toggle_status`, { status: "resolved" });
      const survey = chat(v.page).getByRole("group", { name: "Rate the conversation" });
      await survey.waitFor();
      await expectLook(v.page, `controls-csat-${look}`, clipOf(await settledBox(survey)));
      expect(v.errors).toEqual([]);
      await v.context.close();
    }, 150_000);
  }
});
