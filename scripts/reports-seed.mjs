// Four weeks of demo history for `npm start`'s demo account, so reports are not empty on first
// start: conversations answered by the admin and the agent (some twice, most resolved), in the
// API inbox with weekday working hours, then reporting events rebuilt from them.
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { secureToken } from "./lib/tokens.mjs";
import { d1, q, wrangler } from "./lib/wrangler.mjs";
import { rebuildReports } from "./reports-rebuild.mjs";

const DAY = 86_400;
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6].map((d) => ({
  day_of_week: d,
  closed_all_day: d === 0 || d === 6,
  open_all_day: false,
  open_hour: 9,
  open_minutes: 0,
  close_hour: 17,
  close_minutes: 0,
}));

/** A small deterministic generator: the same history on every machine. */
function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

export function seedReportHistory({ accountName, adminEmail, agentEmail, inboxName }) {
  const [[ids]] = d1(`SELECT a.id AS account,
      (SELECT id FROM users WHERE email = ${q(adminEmail)}) AS admin,
      (SELECT id FROM users WHERE email = ${q(agentEmail)}) AS agent,
      (SELECT id FROM inboxes WHERE account_id = a.id AND name = ${q(inboxName)}) AS inbox
    FROM accounts a WHERE a.name = ${q(accountName)} ORDER BY a.id LIMIT 1`);
  const { account, admin, agent, inbox } = ids;
  const rand = random(42);
  const now = Math.floor(Date.now() / 1000);
  const statements = [
    `UPDATE inboxes SET working_hours_enabled = 1, timezone = 'Europe/London',
      working_hours = ${q(JSON.stringify(WEEKDAYS))} WHERE id = ${inbox}`,
    `INSERT INTO teams (account_id, name, description) VALUES (${account}, 'support', 'Demo team')`,
    `INSERT INTO team_members (team_id, user_id) SELECT t.id, u.id FROM teams t, users u
      WHERE t.account_id = ${account} AND t.name = 'support' AND u.id IN (${admin}, ${agent})`,
    `INSERT INTO labels (account_id, title, color) VALUES (${account}, 'billing', '#e5484d')`,
    `INSERT INTO contacts (account_id, name, email) VALUES (${account}, 'Casey Customer', 'casey@example.com')`,
  ];
  const team = `(SELECT id FROM teams WHERE account_id = ${account} AND name = 'support')`;
  const contact = `(SELECT id FROM contacts WHERE account_id = ${account} AND email = 'casey@example.com')`;
  for (let n = 0; n < 48; n++) {
    const created = now - 28 * DAY + Math.floor((n / 48) * 27 * DAY + rand() * 6 * 3600);
    const assignee = n % 3 === 0 ? admin : agent;
    const uuid = randomUUID();
    const messages = [[0, "Contact", "NULL", created, "Hello, I have a question."]];
    let at = created + 120 + Math.floor(rand() * 4 * 3600);
    messages.push([1, "User", assignee, at, "Happy to help!"]);
    if (rand() < 0.6) {
      at += 300 + Math.floor(rand() * 3600);
      messages.push([0, "Contact", "NULL", at, "One more thing…"]);
      at += 60 + Math.floor(rand() * 2 * 3600);
      messages.push([1, "User", assignee, at, "Done, anything else?"]);
    }
    const resolved = rand() < 0.75 && at < now - 600;
    const end = resolved ? at + 600 + Math.floor(rand() * 3600) : at;
    statements.push(`INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, status,
        assignee_id, team_id, first_reply_created_at, waiting_since, last_activity_at, created_at, updated_at)
      VALUES (${account}, (SELECT COALESCE(MAX(display_id), 0) + 1 FROM conversations WHERE account_id = ${account}),
        ${q(uuid)}, ${inbox}, ${contact}, ${q(resolved ? "resolved" : "open")}, ${assignee},
        ${n % 2 === 0 ? team : "NULL"}, ${messages[1][3]}, NULL, ${at}, ${created}, ${end})`);
    if (n % 4 === 0) {
      statements.push(`INSERT INTO conversation_labels (conversation_id, title)
        SELECT id, 'billing' FROM conversations WHERE uuid = ${q(uuid)}`);
    }
    messages.forEach(([type, senderType, sender, time, content], i) => {
      statements.push(`INSERT INTO messages (account_id, inbox_id, conversation_id, seq, content, message_type,
          sender_type, sender_id, created_at, updated_at)
        SELECT ${account}, ${inbox}, id, ${i + 1}, ${q(content)}, ${type}, ${q(senderType)}, ${sender}, ${time}, ${time}
        FROM conversations WHERE uuid = ${q(uuid)}`);
    });
  }
  const file = path.join(tmpdir(), `parley-reports-seed-${process.pid}-${secureToken(6)}.sql`);
  writeFileSync(file, `${statements.join(";\n")};\n`);
  try {
    wrangler(["d1", "execute", "DB", "--local", "--yes", "--file", file]);
  } finally {
    rmSync(file, { force: true });
  }
  return rebuildReports({ accountId: account });
}
