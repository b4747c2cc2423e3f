// The agents' app's browser tests: their own `wrangler dev` (two agents who sign in with a
// password, so the sign-in page is part of every run) and the customer's page on another site.
import { createServer } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { passwordHash } from "../../scripts/lib/tokens.mjs";
import { freshDatabase, startServer } from "../bench/lib.mjs";
import { INBOX, startHost, watchErrors } from "./harness.mts";

export const PASSWORD = "e2e-password-1";
export const ADA = {
  name: "Ada Admin",
  email: "ada@e2e.example",
  token: "e2eDashAdaToken000000001",
};
export const BOB = {
  name: "Bob Agent",
  email: "bob@e2e.example",
  token: "e2eDashBobToken000000001",
};

// The team assigns by hand (auto-assignment off): with it on, the visitor's conversation would go
// at once to whichever signed-in agent is online and never show under Unassigned.
const seed = () => {
  const hash = passwordHash(PASSWORD);
  return `
INSERT INTO accounts (name) VALUES ('Acme support');
INSERT INTO users (name, email, pubsub_token, password_hash) VALUES
  ('${ADA.name}', '${ADA.email}', 'e2e-dash-pubsub-1', '${hash}'),
  ('${BOB.name}', '${BOB.email}', 'e2e-dash-pubsub-2', '${hash}');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator'), (1, 2, 'agent');
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${ADA.token}'), ('User', 2, '${BOB.token}');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token, welcome_title,
  welcome_tagline, greeting_enabled, greeting_message, widget_color, enable_auto_assignment,
  enable_email_collect)
  VALUES (1, 'Acme website', 'Channel::WebWidget', '${INBOX}', 'e2e-hmac', 'Hi there!',
  'We usually reply in a few minutes.', 0, 'Hello! How can we help?', '#1f5fbf', 0, 0);
INSERT INTO inbox_members (inbox_id, user_id) VALUES (1, 1), (1, 2);
`;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startDashboardWorld(name: string) {
  const db = freshDatabase(name, seed());
  const parley = await startServer(db.dir, await freePort(), {});
  const host = await startHost(parley.base);
  return {
    base: parley.base as string,
    hostUrl: host.url,
    stop: async () => {
      await host.stop();
      await parley.stop();
    },
  };
}

/** A call to the account API as Ada (administrator); anything but 2xx throws. */
export function adaApi(base: string) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1/accounts/1${url}`, {
      method,
      headers: { api_access_token: ADA.token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
    }
    return res.json();
  };
}

/** A POST to the widget inbox's public API; anything but 2xx throws. */
async function publicPost(base: string, url: string, body: unknown) {
  const res = await fetch(`${base}/public/api/v1/inboxes/${INBOX}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    throw new Error(`POST ${url} → ${res.status} ${await res.text()}`);
  }
  return res.json();
}

/** A new visitor of the widget inbox with a conversation: its source_id and the display id. */
export async function newVisitor(
  base: string,
  contact: Record<string, unknown>,
): Promise<{ sourceId: string; conversationId: number }> {
  const c = await publicPost(base, "/contacts", contact);
  const conv = await publicPost(base, `/contacts/${c.source_id}/conversations`, {});
  return { sourceId: c.source_id, conversationId: conv.id };
}

/** A visitor's conversation in the widget inbox, with their messages; answers its display id. */
export async function visitorConversation(
  base: string,
  contact: Record<string, unknown>,
  messages: string[],
): Promise<number> {
  const { sourceId, conversationId } = await newVisitor(base, contact);
  for (const content of messages) {
    await publicPost(base, `/contacts/${sourceId}/conversations/${conversationId}/messages`, {
      content,
    });
  }
  return conversationId;
}

/** Signs in through the app's own page; resolves on the conversation list. */
export async function signIn(
  browser: Browser,
  base: string,
  who: { email: string },
  options: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    colorScheme: options.colorScheme ?? "light",
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${base}/app`);
  await page.locator("#email").fill(who.email);
  await page.locator("#password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator(".tabs").waitFor();
  return { context, page, errors };
}

/** The list's row of a conversation (by its display id). */
export const listRow = (page: Page, id: number) => page.locator(`.row[data-id="${id}"]`);
/** A message of the open thread, by its text. */
export const threadMessage = (page: Page, text: string) =>
  page.locator(".thread .msg:not(.pending)", { hasText: text });
