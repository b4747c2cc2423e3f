// The header's agents, and the help center's own guard on article HTML (happy-dom).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InboxSettings } from "../../widget/src/app/api/types";
import { Header } from "../../widget/src/app/components/Header";
import { configure } from "../../widget/src/app/config";
import { articleLocale } from "../../widget/src/app/help/locale";
import { cleanArticle } from "../../widget/src/app/help/sanitize";
import { settings } from "../../widget/src/app/state/ui";
import { XSS_PAYLOADS } from "../e2e/help-center-xss-payloads.mjs";
import { inboxSettings, show } from "./support";

const SETTINGS = inboxSettings({ welcome_tagline: null });

const agent = (
  name: string,
  availability_status: "online" | "busy" | "offline",
  avatar_url: string | null = null,
) => ({
  name,
  avatar_url,
  availability_status,
});

let view: ReturnType<typeof show> | undefined;

beforeEach(() => {
  configure("#inbox=inbox-1", "en");
});

afterEach(() => {
  view?.cleanup();
  view = undefined;
});

describe("Header agents", () => {
  it("shows up to three agents, a dot on those online, and the reply time", () => {
    settings.value = {
      ...SETTINGS,
      available_agents: [
        agent("Ann Lee", "online", "https://cdn.example/ann.png"),
        agent("Bo", "busy"),
        agent("Cy Dee", "offline"),
        agent("Di", "online"),
      ],
    };
    view = show(() => <Header />);
    const faces = view.root.querySelectorAll(".pw-agents > span");
    expect(faces).toHaveLength(3);
    expect(view.root.querySelector(".pw-agents")?.getAttribute("aria-hidden")).toBe("true");
    expect([...faces].map((f) => f.className)).toEqual(["online", "busy", "offline"]);
    expect(faces[0]?.querySelector("img")?.getAttribute("src")).toBe("https://cdn.example/ann.png");
    expect(faces[2]?.textContent).toBe("CD");
    expect(view.root.querySelector(".pw-status")?.textContent).toBe(
      "Typically replies in a few minutes",
    );
    expect(view.root.querySelector(".pw-online")).not.toBeNull();
  });

  it("says the team is away when no agent is online, tagline or not", () => {
    settings.value = {
      ...SETTINGS,
      welcome_tagline: "We reply fast",
      available_agents: [agent("Bo", "busy"), agent("Cy", "offline")],
    };
    view = show(() => <Header />);
    expect(view.root.querySelector(".pw-status")?.textContent).toBe("We're away at the moment");
    expect(view.root.querySelector(".pw-online")).toBeNull();
  });

  it("keeps the old line for a cached record without agents", () => {
    const { available_agents: _, ...old } = SETTINGS;
    settings.value = { ...old, welcome_tagline: "We reply fast" } as InboxSettings;
    view = show(() => <Header />);
    expect(view.root.querySelector(".pw-agents")).toBeNull();
    expect(view.root.querySelector(".pw-status")?.textContent).toBe("We reply fast");
  });
});

describe("cleanArticle", () => {
  it("keeps the article's content and makes links open safely in a new tab", () => {
    const out = document.createElement("div");
    out.append(
      cleanArticle(
        '<h2 id="x">Setup</h2><p>Read <a href="https://docs.example/a" onclick="x()">the docs</a> <img src="https://img.example/a.png" alt="A"></p><ul><li><code>npm i</code></li></ul>',
      ),
    );
    expect(out.innerHTML).toBe(
      '<h3>Setup</h3><p>Read <a href="https://docs.example/a" target="_blank" rel="noopener noreferrer nofollow">the docs</a> <img src="https://img.example/a.png" alt="A" loading="lazy"></p><ul><li><code>npm i</code></li></ul>',
    );
  });

  it("drops every script, handler and script URL of the XSS list", () => {
    const out = document.createElement("div");
    for (const payload of XSS_PAYLOADS) {
      out.append(cleanArticle(`<p>before</p>${payload}<p>after</p>`));
    }
    expect(
      out.querySelectorAll(
        "script, style, iframe, object, embed, svg, math, form, input, base, meta, link, template",
      ),
    ).toHaveLength(0);
    for (const el of out.querySelectorAll("*")) {
      for (const attr of el.attributes) {
        expect(attr.name).toMatch(
          /^(href|src|alt|title|width|height|colspan|rowspan|scope|start|target|rel|loading)$/,
        );
        if (attr.name === "href" || attr.name === "src") {
          expect(attr.value).toMatch(/^(https?|mailto):/);
        }
      }
    }
  });
});

describe("articleLocale: which of the portal's locales the help home lists", () => {
  const portal = {
    slug: "acme",
    default_locale: "en",
    allowed_locales: ["en", "de", "pt_BR", "pt"],
  };

  it("takes the first wanted language the portal has, exact region before base language", () => {
    expect(articleLocale(portal, [null, "de-AT", "en"])).toBe("de");
    expect(articleLocale(portal, ["pt-BR"])).toBe("pt_BR");
    expect(articleLocale(portal, ["pt-PT"])).toBe("pt");
    expect(articleLocale(portal, ["fr", "de"])).toBe("de");
  });

  it("falls back to the portal's default for a language it lacks, or a record without locales", () => {
    expect(articleLocale(portal, ["ja", undefined])).toBe("en");
    const old = { slug: "acme", default_locale: "de" } as unknown as typeof portal;
    expect(articleLocale(old, ["en"])).toBe("de");
  });
});
