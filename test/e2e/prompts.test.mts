// Issue 22 point 7 in Chromium: a bot's buttons and the CSAT survey sent on resolve render as
// controls in the widget; the answer goes through the public message update once, shows
// answered after a reload, and the rating is in the account's csat_survey_responses. Hostile
// labels and URLs in a prompt run nothing. The inbox's own out-of-office message and email
// request are server template messages the widget shows once, the request as an email field.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { accountCall, bubble, chat, launchChromium, launcher, openHost } from "./harness.mts";
import { XSS_PAYLOADS } from "./help-center-xss-payloads.mts";
import { createWidgetInbox } from "./help-world.mts";
import { explainFailure } from "./trail.mts";

// A failed test prints what its widget pages did (trail.mts).
beforeEach((ctx) => explainFailure(ctx));

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

  it("outside working hours: the away message once, then the email request answered in the widget", async () => {
    const inbox = await createWidgetInbox(base, "Night desk", [["Ann Lee", "online"]], {
      enable_email_collect: true,
      working_hours_enabled: true,
      out_of_office_message: "We are closed tonight.",
      working_hours: Array.from({ length: 7 }, (_, d) => ({
        day_of_week: d,
        closed_all_day: true,
      })),
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openHost(context, `${base}/demo?inbox=${inbox.identifier}`);
    await launcher(page).click();
    const input = chat(page).locator("textarea");
    await input.waitFor();
    // No notice or form of the widget's own before anything was said.
    expect(await chat(page).getByText("We are closed tonight.").count()).toBe(0);
    await input.fill("Anyone there?");
    await input.press("Enter");
    const field = chat(page).getByRole("textbox", { name: "Email" });
    await field.waitFor();
    await bubble(page, "We are closed tonight.").waitFor();
    await bubble(page, "Give the team a way to reach you.").waitFor();
    // Out of office first, then no greeting (Chatwoot's order), each once.
    expect(await bubble(page, "Hello! How can we help?").count()).toBe(0);
    expect(await bubble(page, "We are closed tonight.").count()).toBe(1);
    await field.fill("night.owl@example.com");
    await chat(page).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => field.isDisabled(), { timeout: 20_000 }).toBe(true);
    // The contact has the address, and the agents see the answered request.
    const list = await call("GET", `/conversations?status=all&inbox_id=${inbox.id}`);
    const id = Math.max(...(list.data.payload as { id: number }[]).map((c) => c.id));
    await expect
      .poll(async () => (await call("GET", `/conversations/${id}`)).meta.sender.email)
      .toBe("night.owl@example.com");
    const stored = (await call("GET", `/conversations/${id}/messages`)).payload as {
      content: string;
      content_type: string;
      message_type: number;
      content_attributes: { submitted_values?: { value: string }[] };
    }[];
    const templates = stored.filter((m) => m.message_type === 3);
    expect(templates.map((m) => [m.content_type, m.content])).toEqual([
      ["text", "We are closed tonight."],
      ["text", "Give the team a way to reach you."],
      ["input_email", "Get notified by email"],
    ]);
    expect(templates[2]?.content_attributes.submitted_values?.[0]?.value).toBe(
      "night.owl@example.com",
    );
    // A second message gets nothing more (once a day; the email is known).
    await input.fill("Thanks!");
    await input.press("Enter");
    await bubble(page, "Thanks!").locator(".pw-meta", { hasText: "Sent" }).waitFor();
    const after = (await call("GET", `/conversations/${id}/messages`)).payload as {
      message_type: number;
    }[];
    expect(after.filter((m) => m.message_type === 3)).toHaveLength(3);
    expect(errors).toEqual([]);
    await context.close();
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
