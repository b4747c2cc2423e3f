// Browser tests' plumbing: a real `wrangler dev` on a fresh local D1, headless Chromium, a
// customer's page on another origin (with a strict CSP), and the agent's side over the API.
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Frame,
  type Page,
} from "playwright-core";
import { freshDatabase, startServer } from "../bench/lib.mjs";
import { watchTrail } from "./trail.mts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
];
export const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");

export const INBOX = "e2eWidgetInbox0000000001";
export const ADMIN_TOKEN = "e2eAdminToken00000000001";
export const AGENT_NAME = "Alan Agent";

const SEED = `
INSERT INTO accounts (name) VALUES ('Widget E2E');
INSERT INTO users (name, email, pubsub_token) VALUES ('${AGENT_NAME}', 'alan@e2e.example', 'e2e-user-pubsub');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${ADMIN_TOKEN}');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token, welcome_title,
  welcome_tagline, greeting_enabled, greeting_message, widget_color, enable_email_collect)
  VALUES (1, 'Acme website', 'Channel::WebWidget', '${INBOX}', 'e2e-hmac', 'Hi there!',
  'We usually reply in a few minutes.', 1, 'Hello! How can we help?', '#1f5fbf', 0);
INSERT INTO inbox_members (inbox_id, user_id) VALUES (1, 1);
`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export type Parley = { base: string; stop: () => Promise<void> };

/**
 * `wrangler dev` serving the built widget and the API on a fresh database; webhooks may point
 * at loopback receivers (as under `npm start`), so tests can be the site owner's receiver.
 */
export async function startParley(
  name: string,
  vars: Record<string, string> = {},
): Promise<Parley> {
  const db = freshDatabase(name, SEED);
  return startServer(db.dir, await freePort(), { PARLEY_ALLOW_LOOPBACK_WEBHOOKS: "1", ...vars });
}

/**
 * A DNS-over-HTTPS JSON resolver on loopback, for custom-domain verification (DNS is the outside
 * world): `GET /dns-query?name=…&type=TXT` answers the TXT values a test set with
 * `PUT /records/{name}` (a JSON array of strings); any other name is NXDOMAIN.
 */
export async function startDoh() {
  const records = new Map<string, string[]>();
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "PUT" && url.pathname.startsWith("/records/")) {
      let raw = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        raw += chunk;
      });
      req.on("end", () => {
        records.set(decodeURIComponent(url.pathname.slice("/records/".length)), JSON.parse(raw));
        res.writeHead(204).end();
      });
      return;
    }
    const name = url.searchParams.get("name") ?? "";
    const values = url.searchParams.get("type") === "TXT" ? (records.get(name) ?? []) : [];
    const Answer = values.map((v) => ({ name, type: 16, TTL: 60, data: JSON.stringify(v) }));
    res.writeHead(200, { "content-type": "application/dns-json" });
    res.end(JSON.stringify({ Status: values.length > 0 ? 0 : 3, Answer }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The site owner's webhook receiver: keeps the JSON bodies Parley POSTs to it. */
export async function startReceiver() {
  const bodies: Record<string, unknown>[] = [];
  const server = createHttpServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      bodies.push(JSON.parse(raw));
      res.writeHead(200).end();
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** The embed snippet on a page of another origin, under the CSP docs/widget.md documents. */
export function hostHtml(base: string, extraHead = "") {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${extraHead}</head>
<body><h1>Acme shop</h1><p>Products and prices.</p><a href="#top">Top of page</a>
<script src="${base}/widget.js" data-inbox="${INBOX}" async></script></body></html>`;
}

export const hostCsp = (base: string) =>
  `default-src 'none'; script-src ${base}; frame-src ${base}; style-src 'none'; img-src 'none'`;

/**
 * The customer's site, on another site than Parley: `localhost` vs `127.0.0.1` (both loopback,
 * so Chromium's private-network rules let the page load the widget, as a public site would).
 */
export async function startHost(base: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createHttpServer((req, res) => {
    res.writeHead(req.url === "/" ? 200 : 404, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": hostCsp(base),
    });
    res.end(req.url === "/" ? hostHtml(base) : "");
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${port}/`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Console errors, uncaught exceptions and CSP violations of a page and its frames. */
export function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") {
      errors.push(`console: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

// The launcher is the button with aria-expanded (the reply preview and its dismiss are buttons too).
export const launcher = (page: Page) => page.locator("parley-widget button[aria-expanded]");
export const chat = (page: Page) => page.frameLocator("parley-widget iframe");

/** A call to the seeded account's API as its administrator; anything but 2xx throws. */
export function accountCall(base: string) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1/accounts/1${url}`, {
      method,
      headers: { api_access_token: ADMIN_TOKEN, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
    }
    return res.json();
  };
}

/** The agent's side: the account API with an administrator's token. */
export function agentApi(base: string) {
  const call = accountCall(base);
  return {
    /** The newest conversation's display id (the widget's conversation). */
    async latestConversation(): Promise<number> {
      const body = await call("GET", "/conversations?status=all");
      const list = (body.data?.payload ?? []) as { id: number }[];
      if (list.length === 0) {
        throw new Error("no conversation yet");
      }
      return Math.max(...list.map((c) => c.id));
    },
    messages: async (id: number) =>
      ((await call("GET", `/conversations/${id}/messages`)).payload ?? []) as {
        content: string | null;
        message_type: number;
      }[],
    reply: (id: number, content: string) =>
      call("POST", `/conversations/${id}/messages`, { content, message_type: "outgoing" }),
    typing: (id: number, on: boolean) =>
      call("POST", `/conversations/${id}/toggle_typing_status`, {
        typing_status: on ? "on" : "off",
      }),
    resolve: (id: number) =>
      call("POST", `/conversations/${id}/toggle_status`, { status: "resolved" }),
    /** An account webhook; resolves to its id. */
    createWebhook: async (url: string, subscriptions: string[]): Promise<number> =>
      (await call("POST", "/webhooks", { url, subscriptions })).id,
    deleteWebhook: (id: number) => call("DELETE", `/webhooks/${id}`),
  };
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });

/** The chat's document (for evaluating inside it). */
export function chatFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes("/frame"));
  if (!frame) {
    throw new Error("the chat frame is not loaded");
  }
  return frame;
}

/** A new page of `context` on the host site, with the launcher painted. */
export async function openHost(context: BrowserContext, hostUrl: string) {
  const page = await context.newPage();
  const errors = watchErrors(page);
  // Printed by explainFailure (trail.mts) if a test fails.
  await watchTrail(page);
  await page.goto(hostUrl);
  await launcher(page).waitFor();
  return { page, errors };
}

export const bubble = (page: Page, text: string) =>
  chat(page).locator(".pw-msg", { hasText: text });
