// Issues 13.5 and 15.1: the header with the inbox's agents and the help-center home, compared
// against the baselines in docs/widget/ (look.test.mts has the rest of the widget's look).
import { describe, expect, inject, it } from "vitest";
import { chat, launcher } from "./harness.mts";
import { createWidgetInbox, linkPortal } from "./help-world.mts";
import { CORNER, expectLook, newVisitor, openChat, useBrowser } from "./look-support.mts";

const base = inject("parleyBase");

useBrowser();

describe("the widget's look with agents and a help center (docs/widget/*.png)", () => {
  it("the header with three agents, two online: desktop light and dark", async () => {
    const inbox = await createWidgetInbox(base, "Team desk", [
      ["Ann Lee", "online"],
      ["Bo Park", "online"],
      ["Cy Dee", "busy"],
    ]);
    for (const [name, dark] of [
      ["header-agents-desktop-light", false],
      ["header-agents-desktop-dark", true],
    ] as const) {
      const v = await newVisitor({ dark, url: `${base}/demo?inbox=${inbox.identifier}` });
      await openChat(v.page);
      expect(await chat(v.page).locator(".pw-agents .online").count()).toBe(2);
      await expectLook(v.page, name, CORNER);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }
  });

  it("the help-center home with the popular articles: desktop and phone", async () => {
    const inbox = await createWidgetInbox(base, "Help desk", [["Ann Lee", "online"]]);
    await linkPortal(base, inbox.id);
    for (const [name, mobile] of [
      ["help-home-desktop-light", false],
      ["help-home-phone-light", true],
    ] as const) {
      const v = await newVisitor({ mobile, url: `${base}/demo?inbox=${inbox.identifier}` });
      await launcher(v.page).click();
      await chat(v.page).locator(".pw-articles li").nth(2).waitFor();
      await expectLook(v.page, name, mobile ? undefined : CORNER);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }
  });
});
