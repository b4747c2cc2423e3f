// The demo account `npm start` seeds into an empty local database.

import { passwordHash, secureToken } from "./tokens.mjs";
import { d1, q } from "./wrangler.mjs";

export const DEMO = {
  account: "Parley Demo",
  admin: { name: "Ada Admin", email: "admin@demo.parley.local" },
  agent: { name: "Alan Agent", email: "agent@demo.parley.local" },
  /** Both demo users sign in to the app (/app) with it; a local demo's, printed by npm start. */
  password: "parley-demo",
  apiInbox: "Demo API inbox",
  widgetInbox: "Demo website",
  platformApp: "Demo platform app",
};

export function isEmpty() {
  const [[row]] = d1("SELECT count(*) AS n FROM accounts");
  return row.n === 0;
}

export function seed(baseUrl) {
  const account = `(SELECT id FROM accounts WHERE name = ${q(DEMO.account)})`;
  const user = (email) => `(SELECT id FROM users WHERE email = ${q(email)})`;
  const inbox = (name) =>
    `(SELECT id FROM inboxes WHERE name = ${q(name)} AND account_id = ${account})`;
  const statements = [
    `INSERT INTO accounts (name, locale, support_email) VALUES (${q(DEMO.account)}, 'en', 'support@demo.parley.local')`,
    ...[DEMO.admin, DEMO.agent].map(
      (u) =>
        `INSERT INTO users (name, email, pubsub_token, password_hash) VALUES (${q(u.name)}, ${q(u.email)}, ${q(secureToken())}, ${q(passwordHash(DEMO.password))})`,
    ),
    `INSERT INTO account_users (account_id, user_id, role) VALUES (${account}, ${user(DEMO.admin.email)}, 'administrator')`,
    `INSERT INTO account_users (account_id, user_id, role, inviter_id) VALUES (${account}, ${user(DEMO.agent.email)}, 'agent', ${user(DEMO.admin.email)})`,
    ...[DEMO.admin, DEMO.agent].map(
      (u) =>
        `INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', ${user(u.email)}, ${q(secureToken())})`,
    ),
    `INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token) VALUES (${account}, ${q(DEMO.apiInbox)}, 'Channel::Api', ${q(secureToken())}, ${q(secureToken())})`,
    `INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token, website_url, welcome_title, welcome_tagline, greeting_enabled, greeting_message)
       VALUES (${account}, ${q(DEMO.widgetInbox)}, 'Channel::WebWidget', ${q(secureToken())}, ${q(secureToken())}, ${q(`${baseUrl}/demo`)},
               'Hi there!', 'We usually reply in a few minutes.', 1, 'Hello! How can we help?')`,
    ...[DEMO.apiInbox, DEMO.widgetInbox].flatMap((name) =>
      [DEMO.admin, DEMO.agent].map(
        (u) =>
          `INSERT INTO inbox_members (inbox_id, user_id) VALUES (${inbox(name)}, ${user(u.email)})`,
      ),
    ),
    `INSERT INTO platform_apps (name) VALUES (${q(DEMO.platformApp)})`,
    `INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('PlatformApp', last_insert_rowid(), ${q(secureToken())})`,
    `INSERT INTO platform_app_permissibles (platform_app_id, permissible_type, permissible_id)
       SELECT p.id, 'Account', ${account} FROM platform_apps p WHERE p.name = ${q(DEMO.platformApp)}`,
    ...[DEMO.admin, DEMO.agent].map(
      (
        u,
      ) => `INSERT INTO platform_app_permissibles (platform_app_id, permissible_type, permissible_id)
       SELECT p.id, 'User', ${user(u.email)} FROM platform_apps p WHERE p.name = ${q(DEMO.platformApp)}`,
    ),
  ];
  d1(statements.join(";\n"));
}

/** Reads back what the seed created, for printing. */
export function demoFacts() {
  const [[account], [admin], [agent], [apiInbox], [widgetInbox], [platform], [passwords]] = d1(
    [
      `SELECT id FROM accounts WHERE name = ${q(DEMO.account)} ORDER BY id LIMIT 1`,
      `SELECT t.token FROM access_tokens t JOIN users u ON u.id = t.owner_id AND t.owner_type = 'User' WHERE u.email = ${q(DEMO.admin.email)}`,
      `SELECT t.token FROM access_tokens t JOIN users u ON u.id = t.owner_id AND t.owner_type = 'User' WHERE u.email = ${q(DEMO.agent.email)}`,
      `SELECT id, inbox_identifier FROM inboxes WHERE name = ${q(DEMO.apiInbox)} ORDER BY id LIMIT 1`,
      `SELECT id, inbox_identifier FROM inboxes WHERE name = ${q(DEMO.widgetInbox)} ORDER BY id LIMIT 1`,
      `SELECT t.token FROM access_tokens t JOIN platform_apps p ON p.id = t.owner_id AND t.owner_type = 'PlatformApp' WHERE p.name = ${q(DEMO.platformApp)} ORDER BY p.id LIMIT 1`,
      `SELECT count(*) AS n FROM users WHERE email = ${q(DEMO.agent.email)} AND password_hash IS NOT NULL`,
    ].join(";\n"),
  );
  // A database seeded before the demo users had a password: its agents sign in with a token only.
  const demoPassword = passwords?.n > 0 ? DEMO.password : null;
  return { account, admin, agent, apiInbox, widgetInbox, platform, demoPassword };
}
