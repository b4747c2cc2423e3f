// The SQL of `npm run reports:rebuild` (scripts/reports-rebuild.mjs): pure, so the Worker's tests
// run the very statements against D1 (test/reports/rebuild.test.ts).

/** SQL string literal (as scripts/lib/wrangler.mjs, which this pure module cannot import). */
const q = (value) => `'${String(value).replaceAll("'", "''")}'`;

/** Business seconds of inbox `inbox` up to `t`: the SQL twin of queries.calendar.ts. */
export const clock = (
  inbox,
  t,
) => `COALESCE((SELECT h."before" + MIN(MAX(${t} - h.start, 0), h."end" - h.start)
  FROM reporting_hours h WHERE h.inbox_id = ${inbox} AND h.start <= ${t}
  ORDER BY h.start DESC LIMIT 1), 0)`;

const COLUMNS = `(account_id, name, value, value_in_business_hours, inbox_id, user_id, team_id,
  conversation_id, event_start_time, event_end_time, created_at)`;

/** One fact per row of `from` (naming `c` and the start/end/user expressions). */
const fact = (name, { start, end, user, from }) => `INSERT INTO reporting_events ${COLUMNS}
  SELECT c.account_id, ${q(name)}, (${end}) - (${start}),
    ${clock("c.inbox_id", end)} - ${clock("c.inbox_id", start)},
    c.inbox_id, ${user}, c.team_id, c.id, ${start}, ${end}, ${end}
  ${from}`;

const HUMAN = `m.message_type = 1 AND m.private = 0 AND m.sender_type = 'User'
  AND json_extract(CASE WHEN json_valid(m.content_attributes) THEN m.content_attributes ELSE '{}' END,
    '$.automation_rule_id') IS NULL`;

/** Human replies numbered per conversation, in the conversation's order. */
const REPLIES = `WITH r AS (SELECT m.*, ROW_NUMBER() OVER (PARTITION BY m.conversation_id ORDER BY m.seq) AS n
  FROM messages m WHERE ${HUMAN})`;

export function rebuildStatements(accountId) {
  const only = (alias) => (accountId ? `AND ${alias}.account_id = ${Number(accountId)}` : "");
  const conv = (where = "") => `FROM conversations c WHERE 1 ${only("c")} ${where}`;
  return [
    `DELETE FROM reporting_rollups WHERE 1 ${only("reporting_rollups")}`,
    `DELETE FROM reporting_events WHERE 1 ${only("reporting_events")}`,
    fact("conversation_created", {
      start: "c.created_at",
      end: "c.created_at",
      user: "c.assignee_id",
      from: conv(),
    }),
    // Only the current assignee and team are stored: counted as assigned at creation.
    fact("conversation_assigned", {
      start: "c.created_at",
      end: "c.created_at",
      user: "c.assignee_id",
      from: conv("AND c.assignee_id IS NOT NULL"),
    }),
    fact("conversation_team_assigned", {
      start: "c.created_at",
      end: "c.created_at",
      user: "c.assignee_id",
      from: conv("AND c.team_id IS NOT NULL"),
    }),
    // Labels: when they were added is not stored; counted as labelled at creation.
    `INSERT INTO reporting_events ${COLUMNS.replace(")", ", label_id)")}
      SELECT c.account_id, 'conversation_labelled', 0, 0, c.inbox_id, c.assignee_id, c.team_id, c.id,
        c.created_at, c.created_at, c.created_at, l.id
      FROM conversations c JOIN conversation_labels cl ON cl.conversation_id = c.id
        JOIN labels l ON l.account_id = c.account_id AND l.title = cl.title
      WHERE 1 ${only("c")}`,
    `INSERT INTO reporting_events ${COLUMNS}
      SELECT c.account_id, CASE m.message_type WHEN 0 THEN 'message_incoming' ELSE 'message_outgoing' END,
        0, 0, c.inbox_id,
        CASE WHEN m.message_type = 0 THEN c.assignee_id WHEN m.sender_type = 'User' THEN m.sender_id END,
        c.team_id, c.id, m.created_at, m.created_at, m.created_at
      FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.message_type IN (0, 1) AND m.private = 0 ${only("c")}`,
    `${REPLIES} ${fact("first_response", {
      start: "c.created_at",
      end: "r.created_at",
      user: "r.sender_id",
      from: `FROM r JOIN conversations c ON c.id = r.conversation_id WHERE r.n = 1 ${only("c")}`,
    })}`,
    // A later reply ends the wait that the customer's first message after the previous reply began.
    `${REPLIES}, w AS (SELECT cur.conversation_id, cur.sender_id, cur.created_at AS at,
        (SELECT MIN(i.created_at) FROM messages i WHERE i.conversation_id = cur.conversation_id
          AND i.message_type = 0 AND i.seq > prev.seq AND i.seq < cur.seq) AS since
      FROM r cur JOIN r prev ON prev.conversation_id = cur.conversation_id AND prev.n = cur.n - 1)
    ${fact("reply_time", {
      start: "w.since",
      end: "w.at",
      user: "w.sender_id",
      from: `FROM w JOIN conversations c ON c.id = w.conversation_id WHERE w.since IS NOT NULL ${only("c")}`,
    })}`,
    // A resolved conversation: its last change is taken as the resolution.
    fact("conversation_resolved", {
      start: "c.created_at",
      end: "c.updated_at",
      user: "c.assignee_id",
      from: conv("AND c.status = 'resolved'"),
    }),
    fact("conversation_bot_resolved", {
      start: "c.created_at",
      end: "c.updated_at",
      user: "NULL",
      from: conv(`AND c.status = 'resolved' AND c.first_reply_created_at IS NULL
        AND EXISTS (SELECT 1 FROM agent_bot_inboxes b WHERE b.inbox_id = c.inbox_id AND b.status = 'active')`),
    }),
  ];
}
