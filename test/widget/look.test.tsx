// Issue 15, point 1: the designed look (markdown, runs, days, brand shade, theme; the inbox's messages are the server's).
import { fireEvent, screen } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../../widget/src/app/App";
import { MessageList } from "../../widget/src/app/components/MessageList";
import { RichText } from "../../widget/src/app/components/RichText";
import { config, configure } from "../../widget/src/app/config";
import { resetChat } from "../../widget/src/app/state/chat";
import { mergeMessages, status } from "../../widget/src/app/state/conversation";
import { saveSession } from "../../widget/src/app/state/session";
import { settings } from "../../widget/src/app/state/ui";
import { brandColor, textOn } from "../../widget/src/shared/contrast";
import { fakeApi, inboxSettings, message, settle, show } from "./support";

const SETTINGS = inboxSettings({
  welcome_tagline: "We usually reply in a few minutes.",
  widget_color: "#1f93ff",
  enable_email_collect: true,
});

let view: ReturnType<typeof show> | undefined;

beforeEach(() => {
  configure("#inbox=inbox-1", "en");
  resetChat();
  settings.value = SETTINGS;
});

afterEach(() => {
  view?.cleanup();
  view = undefined;
  vi.unstubAllGlobals();
});

/** WCAG relative luminance of #rrggbb (the exact sRGB curve, with its linear toe). */
function luminance(hex: string) {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, on: string) => {
  const b = on === "#000" ? "#000000" : "#ffffff";
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe("the brand colour", () => {
  it("stays as it is and gets the text colour that reads on it (4.5:1), on every colour", () => {
    // Issue 24: #f5c518 was darkened to a muddy olive; it now keeps its yellow with black text.
    expect(textOn("#f5c518")).toBe("#000");
    expect(textOn("#123456")).toBe("#fff");
    expect(textOn("#1f5fbf")).toBe("#fff");
    // A sweep of the whole cube, every 17th step of each channel, and the edge of the switch.
    const colours = [];
    for (let r = 0; r < 256; r += 17) {
      for (let g = 0; g < 256; g += 17) {
        for (let b = 0; b < 256; b += 17) {
          colours.push(`#${((r << 16) | (g << 8) | b).toString(16).padStart(6, "0")}`);
        }
      }
    }
    colours.push("#767676", "#777777", "#757575", "#00a0a0", "#ff0000", "#808080");
    for (const brand of colours) {
      expect(contrast(brand, textOn(brand)), brand).toBeGreaterThanOrEqual(4.5);
    }
    // Anything but #rrggbb: the default colour in the app, white text rather than a guess.
    expect(brandColor("red")).toBe("#1f93ff");
    expect(brandColor(" #ABCDEF ")).toBe("#ABCDEF");
    expect(textOn("red")).toBe("#fff");
  });

  it("paints the header and the visitor's bubbles with the brand colour itself", async () => {
    settings.value = inboxSettings({ widget_color: "#f5c518" });
    view = show(() => <App />);
    await settle();
    const main = view.root.querySelector(".pw") as HTMLElement;
    expect(main.style.getPropertyValue("--pw-color")).toBe("#f5c518");
    expect(main.style.getPropertyValue("--pw-on")).toBe("#000");
  });
});

describe("agents' markdown", () => {
  it("renders bold, italic, code, https links and bullets as elements, nothing else", () => {
    view = show(() => (
      <RichText
        markdown
        text={
          "**Bold** and *it* and _also_ and `x = 1` and [docs](https://example.com/d)\n- one\n- two\nsnake_case_name <b>no</b> [bad](javascript:alert(1))"
        }
      />
    ));
    const root = view.root;
    expect(root.querySelector("b")?.textContent).toBe("Bold");
    expect([...root.querySelectorAll("i")].map((i) => i.textContent)).toEqual(["it", "also"]);
    expect(root.querySelector("code")?.textContent).toBe("x = 1");
    const link = screen.getByRole("link", { name: "docs" });
    expect(link.getAttribute("href")).toBe("https://example.com/d");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(root.textContent).toContain("• one\n• two");
    expect(root.textContent).toContain("snake_case_name <b>no</b> [bad](javascript:alert(1))");
    expect(root.querySelectorAll("b")).toHaveLength(1);
    expect(root.querySelectorAll("a")).toHaveLength(1);
  });

  it("is for agents only: the visitor's own text stays literal", () => {
    view = show(() => <RichText text="**not bold**" />);
    expect(view.root.querySelector("b")).toBeNull();
    expect(view.root.textContent).toBe("**not bold**");
  });
});

describe("the message list", () => {
  it("shows one time and one avatar per run, the name once, and a separator per day", async () => {
    const day1 = 1_700_000_000;
    const day2 = day1 + 86_400 * 2;
    view = show(() => <MessageList />);
    mergeMessages([
      message({ id: 1, seq: 1, created_at: day1, content: "a" }),
      message({ id: 2, seq: 2, created_at: day1 + 5, content: "b" }),
      message({ id: 3, seq: 3, created_at: day1 + 9, content: "mine", message_type: 0 }),
      message({ id: 4, seq: 4, created_at: day2, content: "c" }),
    ]);
    await settle();
    const items = [...view.root.querySelectorAll(".pw-log > li")].map((li) => ({
      cls: li.className,
      sender: li.querySelector(".pw-sender")?.textContent ?? null,
      time: Boolean(li.querySelector("time")),
      avatar: Boolean(li.querySelector(".pw-meta .pw-avatar")),
    }));
    expect(items.map((i) => i.cls)).toEqual([
      "pw-activity",
      "pw-msg",
      "pw-msg",
      "pw-msg pw-own",
      "pw-activity",
      "pw-msg",
    ]);
    const bubbles = items.filter((i) => i.cls.startsWith("pw-msg"));
    expect(bubbles.map((i) => i.sender)).toEqual(["Alan Agent", null, null, "Alan Agent"]);
    expect(bubbles.map((i) => i.time)).toEqual([false, true, true, true]);
    expect(bubbles.map((i) => i.avatar)).toEqual([false, true, false, true]);
  });
});

describe("the header", () => {
  it("says the reply time once (the tagline, else the inbox's)", async () => {
    view = show(() => <App />);
    await settle();
    const text = view.root.textContent ?? "";
    expect(text.match(/repl/gi)).toHaveLength(1);
    expect(view.root.querySelector(".pw-status")?.textContent).toBe(
      "We usually reply in a few minutes.",
    );
    settings.value = { ...SETTINGS, welcome_tagline: "" };
    await settle();
    expect(view.root.querySelector(".pw-status")?.textContent).toBe(
      "Typically replies in a few minutes",
    );
  });

  it("takes data-theme from the loader, or follows the system without it", async () => {
    view = show(() => <App />);
    await settle();
    expect(view.root.querySelector(".pw")?.hasAttribute("data-theme")).toBe(false);
    // The frame's one landmark, named apart from the host page's own <main> (axe: region,
    // landmark-one-main, landmark-unique).
    expect(view.root.querySelector(".pw")?.tagName).toBe("MAIN");
    expect(view.root.querySelector("main")?.getAttribute("aria-label")).toBe("Chat");
    view.cleanup();
    configure("#inbox=inbox-1&theme=dark", "en");
    expect(config.theme).toBe("dark");
    view = show(() => <App />);
    await settle();
    expect(view.root.querySelector(".pw")?.getAttribute("data-theme")).toBe("dark");
  });
});

describe("the inbox's greeting, away message and email request", () => {
  beforeEach(() => {
    saveSession({
      sourceId: "s",
      pubsubToken: "t",
      identifier: null,
      email: null,
      conversationId: 3,
    });
    // Outside working hours (closed every day), greeting and email collection on.
    settings.value = {
      ...SETTINGS,
      working_hours_enabled: true,
      out_of_office_message: "Back on Monday.",
      working_hours: Array.from({ length: 7 }, (_, d) => ({
        day_of_week: d,
        closed_all_day: true,
        open_all_day: false,
        open_hour: null,
        open_minutes: null,
        close_hour: null,
        close_minutes: null,
      })),
    } as typeof SETTINGS;
  });

  it("are not drawn by the widget: no card, notice or form of its own", async () => {
    mergeMessages([message({ id: 1, seq: 1, content: "hi", message_type: 0 })]);
    view = show(() => <App />);
    await settle();
    const text = view.root.textContent ?? "";
    expect(text).not.toContain("Hello! How can we help?");
    expect(text).not.toContain("Back on Monday.");
    expect(view.root.querySelector(".pw-card, .pw-email, input[type=email]")).toBeNull();
  });

  it("are the server's template messages: shown once each, the email request as a field", async () => {
    fakeApi(() => new Promise(() => {}));
    mergeMessages([
      message({ id: 1, seq: 1, content: "hi", message_type: 0 }),
      message({ id: 2, seq: 2, content: "Back on Monday.", message_type: 3, sender: null }),
      message({
        id: 3,
        seq: 3,
        content: "Get notified by email",
        message_type: 3,
        content_type: "input_email",
        sender: null,
      }),
    ]);
    view = show(() => <App />);
    const input = await screen.findByRole("textbox", { name: "Email" });
    expect(input.getAttribute("type")).toBe("email");
    expect(input.getAttribute("placeholder")).toBe("you@example.com");
    const text = view.root.textContent ?? "";
    expect(text.match(/Back on Monday\./g)).toHaveLength(1);
    expect(text.match(/Get notified by email/g)).toHaveLength(1);
    // The inbox speaks (a template has no sender).
    expect(view.root.querySelector(".pw-msg .pw-sender")?.textContent).toBe("Acme");
  });
});
