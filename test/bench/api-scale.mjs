// Issue #3 benchmark: search, filter, list and detail at a small and a large data set, served by
// `wrangler dev` (workerd + local D1 with FTS5). Prints p50/p95 per case and large/small ratios.
import { fmt, freshDatabase, getJson, measure, printTable, startServer } from "./lib.mjs";

const TOKEN = "benchAdminToken000000001";
const SCALES = [
  { name: "small", messages: 10_000, contacts: 1_000 },
  { name: "large", messages: 1_000_000, contacts: 100_000 },
];
const MESSAGES_PER_CONVERSATION = 50;
const BASE_TIME = 1_700_000_000;

/** A generated data set: tickets appear ~10 times each at every scale, so hits stay comparable. */
function seedSql({ messages, contacts }) {
  const conversations = messages / MESSAGES_PER_CONVERSATION;
  const tickets = messages / 10;
  return `
INSERT INTO accounts (name) VALUES ('Bench');
INSERT INTO users (name, email, pubsub_token) VALUES ('Bench Admin', 'bench@example.com', 'benchpubsub');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${TOKEN}');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token) VALUES (1, 'Bench', 'Channel::Api', 'benchinbox', 'benchhmac');
INSERT INTO custom_attribute_definitions (account_id, attribute_display_name, attribute_key, attribute_display_type, attribute_model)
  VALUES (1, 'Plan', 'plan', 'list', 'contact_attribute'), (1, 'Seats', 'seats', 'number', 'contact_attribute');
UPDATE custom_attribute_definitions SET attribute_values = '["gold","silver","bronze"]' WHERE attribute_key = 'plan';
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${contacts})
INSERT INTO contacts (account_id, name, email, phone_number, last_activity_at, created_at, additional_attributes, custom_attributes)
SELECT 1, 'Contact ' || i, 'c' || i || '@example.com', '+1555' || substr('0000000' || i, -7), ${BASE_TIME} + i, ${BASE_TIME} + i,
       json_object('city', 'City' || (i % 50), 'country_code', 'C' || (i % 20)),
       json_object('plan', CASE i % 3 WHEN 0 THEN 'gold' WHEN 1 THEN 'silver' ELSE 'bronze' END, 'seats', i % 200)
FROM n;
INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token) SELECT id, 1, 'src-' || id, 'ps-' || id FROM contacts;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${conversations + 1})
INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, created_at)
SELECT 1, i, 'uuid-' || i, 1, ((i - 1) % ${contacts}) + 1, ((i - 1) % ${contacts}) + 1,
       CASE i % 4 WHEN 0 THEN 'resolved' ELSE 'open' END, ${BASE_TIME} + i, ${BASE_TIME} + i
FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${messages})
INSERT INTO messages (account_id, inbox_id, conversation_id, seq, content, message_type, created_at, updated_at)
SELECT 1, 1, ((i - 1) % ${conversations}) + 1, ((i - 1) / ${conversations}) + 1,
       'hello word' || (i % 1000) || ' topic' || (i % 97) || ' ticket' || (i % ${tickets}),
       i % 2, ${BASE_TIME} + i, ${BASE_TIME} + i
FROM n;
-- The E5 case: one conversation with exactly 500 messages.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
INSERT INTO messages (account_id, inbox_id, conversation_id, seq, content, message_type, created_at, updated_at)
SELECT 1, 1, ${conversations + 1}, i, 'detail message ' || i, i % 2, ${BASE_TIME} + i, ${BASE_TIME} + i FROM n;
`;
}

async function runScale(scale, port) {
  const conversations = scale.messages / MESSAGES_PER_CONVERSATION;
  const tickets = scale.messages / 10;
  // Tickets with as many digits as the largest one, so the prefix match hits one term only.
  const low = 10 ** (String(tickets - 1).length - 1);
  const ticket = (i) => low + ((i * 7919) % (tickets - low));
  const { dir, seedSeconds } = freshDatabase(`api-${scale.name}`, seedSql(scale));
  process.stdout.write(
    `seeded ${scale.name}: ${scale.messages} messages, ${scale.contacts} contacts in ${seedSeconds.toFixed(1)} s\n`,
  );
  const server = await startServer(dir, port);
  const url = (p) => `${server.base}/api/v1/accounts/1${p}`;
  const filter = (payload) =>
    getJson(url("/contacts/filter"), TOKEN, { method: "POST", body: JSON.stringify({ payload }) });
  const expectSome = (body, list) => {
    if (list(body).length === 0) {
      throw new Error(`no results: ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  try {
    const cases = {
      "E4 q=<ticket> (≈10 hits)": (i) =>
        getJson(url(`/conversations?q=ticket${ticket(i)}`), TOKEN).then((b) =>
          expectSome(b, (x) => x.data.payload),
        ),
      "E4 q=<two words>": (i) =>
        getJson(url(`/conversations?q=hello%20ticket${ticket(i)}`), TOKEN).then((b) =>
          expectSome(b, (x) => x.data.payload),
        ),
      "E2 filter email equal_to": (i) =>
        filter([
          {
            attribute_key: "email",
            filter_operator: "equal_to",
            values: [`c${(i % scale.contacts) + 1}@example.com`],
            query_operator: null,
          },
        ]).then((b) => expectSome(b, (x) => x.payload)),
      "E2 filter phone starts_with": (i) =>
        filter([
          {
            attribute_key: "phone_number",
            filter_operator: "starts_with",
            values: [`+1555${String((i % scale.contacts) + 1).padStart(7, "0")}`],
            query_operator: null,
          },
        ]).then((b) => expectSome(b, (x) => x.payload)),
      "E2 filter city equal_to": (i) =>
        filter([
          {
            attribute_key: "city",
            filter_operator: "equal_to",
            values: [`City${i % 50}`],
            query_operator: null,
          },
        ]).then((b) => expectSome(b, (x) => x.payload)),
      "E2 filter city and plan (scan)": (i) =>
        filter([
          {
            attribute_key: "city",
            filter_operator: "equal_to",
            values: [`City${i % 50}`],
            query_operator: "and",
          },
          {
            attribute_key: "plan",
            filter_operator: "equal_to",
            values: ["gold"],
            query_operator: null,
          },
        ]).then((b) => expectSome(b, (x) => x.payload)),
      "E1 list page 1": () =>
        getJson(url("/contacts"), TOKEN).then((b) => expectSome(b, (x) => x.payload)),
      "E1 list page 1 sort=name": () =>
        getJson(url("/contacts?sort=name"), TOKEN).then((b) => expectSome(b, (x) => x.payload)),
      "E5 detail (500 messages)": () =>
        getJson(url(`/conversations/${conversations + 1}`), TOKEN).then((b) => {
          if (b.id !== conversations + 1) {
            throw new Error("wrong conversation");
          }
        }),
    };
    const results = {};
    for (const [name, fn] of Object.entries(cases)) {
      results[name] = await measure(fn, { n: 200, warmup: 20 });
    }
    return results;
  } finally {
    await server.stop();
  }
}

export async function main() {
  const byScale = {};
  let port = 8931;
  for (const scale of SCALES) {
    byScale[scale.name] = await runScale(scale, port++);
    printTable(
      `${scale.name}: ${scale.messages} messages, ${scale.contacts} contacts`,
      Object.entries(byScale[scale.name]).map(([name, r]) => ({ name, ...r })),
    );
  }
  process.stdout.write("\nratios large/small (p95)\n");
  for (const name of Object.keys(byScale.small)) {
    const ratio = byScale.large[name].p95 / byScale.small[name].p95;
    process.stdout.write(
      `  ${name.padEnd(34)} ${fmt(ratio)}×  (p50 ${fmt(byScale.large[name].p50 / byScale.small[name].p50)}×)\n`,
    );
  }
  return byScale;
}
