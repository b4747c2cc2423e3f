// Issue 24, point 3 (happy-dom side): the online dot, agents' faces, code blocks in articles,
// and the way back from a conversation to the help center's articles. The scroll pin, the
// preview's look and the launcher's first paint are checked in Chromium (test/e2e/polish).
import { fireEvent, screen } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../../widget/src/app/App";
import { faceOf } from "../../widget/src/app/components/Avatar";
import { Header } from "../../widget/src/app/components/Header";
import { cleanArticle } from "../../widget/src/app/help/sanitize";
import { mergeMessages } from "../../widget/src/app/state/conversation";
import { browsingHelp, helpHome, settings } from "../../widget/src/app/state/ui";
import { textOn } from "../../widget/src/shared/contrast";
import { fakeApi, inboxSettings, message, returningVisitor, settle, show } from "./support";

const agent = (name: string, availability_status: "online" | "busy" | "offline") => ({
  name,
  avatar_url: null,
  availability_status,
});

let view: ReturnType<typeof show> | undefined;

beforeEach(() => {
  returningVisitor();
  helpHome.value = null;
  browsingHelp.value = false;
});

afterEach(() => {
  view?.cleanup();
  view = undefined;
  vi.unstubAllGlobals();
});

describe("the header's online dot", () => {
  it("shows only with an agent online, never for an inbox without agents", () => {
    settings.value = inboxSettings({ welcome_tagline: null, available_agents: [] });
    view = show(() => <Header />);
    // The reply time still says what to expect; no dot claims someone is there.
    expect(view.root.querySelector(".pw-status")?.textContent).toBe(
      "Typically replies in a few minutes",
    );
    expect(view.root.querySelector(".pw-online")).toBeNull();
    view.cleanup();
    settings.value = inboxSettings({
      welcome_tagline: null,
      available_agents: [agent("Ann Lee", "online")],
    });
    view = show(() => <Header />);
    expect(view.root.querySelector(".pw-online")).not.toBeNull();
  });
});

describe("agents' faces", () => {
  it("differ for two agents with the same initials, and read in white", () => {
    expect(faceOf("Ada Admin")).not.toBe(faceOf("Alan Agent"));
    expect(new Set(["Ann Lee", "Bo Park", "Cy Dee"].map(faceOf)).size).toBe(3);
    // One person, one face, wherever they show.
    expect(faceOf("Alan Agent")).toBe(faceOf("Alan Agent"));
    for (const name of ["Ada Admin", "Alan Agent", "Ann Lee", "Bo Park", "Cy Dee", "Zoë", "李雷"]) {
      expect(textOn(faceOf(name)), name).toBe("#fff");
    }
    settings.value = inboxSettings({
      available_agents: [agent("Ada Admin", "online"), agent("Alan Agent", "online")],
    });
    view = show(() => <Header />);
    const faces = [...view.root.querySelectorAll<HTMLElement>(".pw-agents .pw-avatar")];
    expect(faces.map((f) => f.textContent)).toEqual(["AA", "AA"]);
    expect(faces[0]?.style.background).not.toBe(faces[1]?.style.background);
  });
});

describe("code blocks in articles", () => {
  it("are focusable (they scroll sideways) and start their first line at the margin", () => {
    const out = document.createElement("div");
    out.append(cleanArticle("<pre><code>\nnpm install parley\nnpm start</code></pre><p>x</p>"));
    const pre = out.querySelector("pre") as HTMLElement;
    expect(pre.getAttribute("tabindex")).toBe("0");
    expect(pre.querySelector("code")?.textContent).toBe("npm install parley\nnpm start");
    // Only the leading newline goes: the code's own indentation stays.
    out.replaceChildren(cleanArticle("<pre>  indented\n  too</pre>"));
    expect(out.querySelector("pre")?.textContent).toBe("  indented\n  too");
  });
});

describe("from a conversation back to the articles", () => {
  it("the header's help button shows the help home, whose button goes back to the chat", async () => {
    fakeApi((_method, path) => {
      if (path.includes("/articles.json")) {
        return {
          payload: [{ id: 1, title: "Shipping times", slug: "shipping", description: null }],
        };
      }
      return new Promise(() => {});
    });
    settings.value = inboxSettings({
      portal: { slug: "help", default_locale: "en", allowed_locales: ["en"] },
    });
    const { Home } = await import("../../widget/src/app/help/Home");
    helpHome.value = Home;
    mergeMessages([message({ id: 1, seq: 1, content: "Hello there", message_type: 1 })]);
    view = show(() => <App />);
    await settle();
    // A conversation is going on: it shows at once, with a way to the articles.
    expect(screen.getByText("Hello there")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Help articles" }));
    await screen.findByText("Shipping times");
    expect(screen.queryByText("Hello there")).toBeNull();
    // Not the first chat: the home's button says where it leads.
    fireEvent.click(screen.getByRole("button", { name: "Back to the conversation" }));
    await settle();
    expect(screen.getByText("Hello there")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Help articles" })).toBeTruthy();
  });

  it("is not offered by an inbox without a help center", async () => {
    settings.value = inboxSettings({ portal: null });
    mergeMessages([message({ id: 2, seq: 2, content: "Hi", message_type: 1 })]);
    view = show(() => <App />);
    await settle();
    expect(screen.queryByRole("button", { name: "Help articles" })).toBeNull();
  });
});
