// Issue 22 point 7 in Chromium: a bot's buttons and the CSAT survey sent on resolve render as
// controls in the widget; the answer goes through the public message update once, shows
// answered after a reload, and the rating is in the account's csat_survey_responses. Hostile
// labels and URLs in a prompt run nothing.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountCall, bubble, chat, launchChromium, launcher, openHost } from "./harness.mts";
import { XSS_PAYLOADS } from "./help-center-xss-payloads.mts";
import { createWidgetInbox } from "./help-world.mts";

const base = inject("parleyBase");
const call = accountCall(base);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A visitor of a fresh inbox (CSAT on) who said hello; returns the page and conversation. */
async function visitorSaidHello(name: string) {
  const inbox = await createWidgetInbox(base, name, [["Ann Lee", "online"]]);
  await call("PATCH", `/inboxes/${inbox.id}`, { csat_survey_enabled: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, errors } = await openHost(context, `${base}/demo?inbox=${inbox.identifier}`);
  await launcher(page).click();
  const input = chat(page).locator("textarea");
  await input.waitFor();
  await input.fill(`Hello from ${name}`);
  await input.press("Enter");
  await bubble(page, `Hello from ${name}`).waitFor();
  await expect.poll(() => chat(page).locator(".pw-pending").count()).toBe(0);
  const list = await call("GET", `/conversations?status=all&inbox_id=${inbox.id}`);
  const id = Math.max(...(list.data.payload as { id: number }[]).map((c) => c.id));
  return { context, page, errors, id };
}

const reopen = async (page: Page) => {
  await page.reload();
  await launcher(page).click();
  await chat(page).locator("textarea").waitFor();
};

describe("interactive messages in the widget", () => {
  it("a bot's input_select: buttons, one answer stored, answered after a reload", async () => {
    const v = await visitorSaidHello("Buttons desk");
    await call("POST", `/conversations/${v.id}/messages`, {
      content: "What can we help with?",
      message_type: "outgoing",
      content_type: "input_select",
      content_attributes: {
        items: [
          { title: "Track my order", value: "track" },
          { title: "Return an item", value: "return" },
        ],
      },
    });
    const choice = chat(v.page).getByRole("button", { name: "Return an item" });
    await choice.click();
    await expect.poll(() => choice.getAttribute("aria-pressed"), { timeout: 20_000 }).toBe("true");
    const stored = (await call("GET", `/conversations/${v.id}/messages`)).payload as {
      content_type: string;
      content_attributes: { submitted_values?: unknown };
    }[];
    const select = stored.find((m) => m.content_type === "input_select");
    expect(select?.content_attributes.submitted_values).toEqual([
      { title: "Return an item", value: "return" },
    ]);
    await reopen(v.page);
    const again = chat(v.page).getByRole("button", { name: "Return an item" });
    await expect.poll(() => again.getAttribute("aria-pressed")).toBe("true");
    expect(await chat(v.page).getByRole("button", { name: "Track my order" }).isDisabled()).toBe(
      true,
    );
    expect(v.errors).toEqual([]);
    await v.context.close();
  });

  it("the CSAT survey on resolve: rated in the widget, stored as the survey response", async () => {
    const v = await visitorSaidHello("Survey desk");
    await call("POST", `/conversations/${v.id}/toggle_status`, { status: "resolved" });
    const group = chat(v.page).getByRole("group", { name: "Rate the conversation" });
    await group.waitFor();
    await group.getByText("😍").click();
    await chat(v.page).getByPlaceholder("Anything to add? (optional)").fill("Quick and kind");
    await chat(v.page).getByRole("button", { name: "Submit" }).click();
    await chat(v.page)
      .getByText(/Thank you for your feedback/)
      .waitFor();
    const responses = await call("GET", "/csat_survey_responses");
    const mine = (responses.payload ?? responses.data?.payload ?? responses) as {
      rating: number;
      feedback_message: string | null;
      conversation_id: number;
    }[];
    expect(mine.find((r) => r.conversation_id === v.id)).toMatchObject({
      rating: 5,
      feedback_message: "Quick and kind",
    });
    // After a reload the survey shows answered (the message keeps the values).
    await v.page.reload();
    await launcher(v.page).click();
    await chat(v.page)
      .getByText(/Thank you for your feedback/)
      .waitFor();
    expect(await chat(v.page).getByRole("radio").count()).toBe(0);
    expect(v.errors).toEqual([]);
    await v.context.close();
  });

  it("runs nothing from hostile labels, options and URLs", async () => {
    const v = await visitorSaidHello("Hostile desk");
    let dialogs = 0;
    v.page.on("dialog", (d) => {
      dialogs++;
      void d.dismiss();
    });
    const payloads = XSS_PAYLOADS.slice(0, 40);
    await call("POST", `/conversations/${v.id}/messages`, {
      content: "Choose",
      message_type: "outgoing",
      content_type: "input_select",
      content_attributes: { items: payloads.map((p) => ({ title: p, value: p })) },
    });
    await call("POST", `/conversations/${v.id}/messages`, {
      content: "Cards",
      message_type: "outgoing",
      content_type: "cards",
      content_attributes: {
        items: payloads.slice(0, 20).map((p) => ({
          title: p,
          description: p,
          media_url: p,
          actions: [{ type: "link", text: p, uri: p }],
        })),
      },
    });
    await chat(v.page).locator(".pw-cardx").first().waitFor();
    await v.page.waitForTimeout(500);
    const frame = v.page.frames().find((f) => f.url().includes("/frame"));
    const state = await frame?.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      scripts: document.querySelectorAll("main script, main iframe").length,
      hrefs: Array.from(
        document.querySelectorAll<HTMLAnchorElement>(".pw-prompt a"),
        (a) => a.href,
      ),
    }));
    expect(state?.pwned).toBeUndefined();
    expect(state?.scripts).toBe(0);
    for (const href of state?.hrefs ?? []) {
      expect(href).toMatch(/^https?:\/\//);
    }
    expect(dialogs).toBe(0);
    await v.context.close();
  });
});
