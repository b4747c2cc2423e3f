-- The channel summary's counts (summary_reports/channel, docs/reports.md): conversations per
-- account, UTC hour and day of creation, inbox and current status, so a six-month summary reads
-- at most ~183 day rows and ~46 hour rows per inbox and status (and the conversations of the two
-- partial hours at its edges) instead of every conversation created in the range. WITHOUT ROWID:
-- a range of periods is one contiguous read of the primary key.
CREATE TABLE `conversation_status_rollups` (
	`account_id` integer NOT NULL,
	`grain` text NOT NULL,
	`period` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `grain`, `period`, `inbox_id`, `status`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- Kept by triggers, so every writer (services, the rooms, bulk actions, a cascade) keeps them
-- exact within its own statement. An update fires only when the status, the inbox or the
-- creation time changes (not on the activity times a message moves).
CREATE TRIGGER `conversation_status_rollups_insert` AFTER INSERT ON `conversations` BEGIN
  INSERT INTO conversation_status_rollups (account_id, grain, period, inbox_id, status, count)
  VALUES
    (new.account_id, 'hour', new.created_at - (new.created_at % 3600), new.inbox_id, new.status, 1),
    (new.account_id, 'day', new.created_at - (new.created_at % 86400), new.inbox_id, new.status, 1)
  ON CONFLICT (account_id, grain, period, inbox_id, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `conversation_status_rollups_update`
AFTER UPDATE OF status, inbox_id, created_at, account_id ON `conversations`
WHEN old.status IS NOT new.status OR old.inbox_id IS NOT new.inbox_id
  OR old.created_at IS NOT new.created_at OR old.account_id IS NOT new.account_id
BEGIN
  UPDATE conversation_status_rollups SET count = count - 1
  WHERE account_id = old.account_id AND grain = 'hour'
    AND period = old.created_at - (old.created_at % 3600)
    AND inbox_id = old.inbox_id AND status = old.status;
  UPDATE conversation_status_rollups SET count = count - 1
  WHERE account_id = old.account_id AND grain = 'day'
    AND period = old.created_at - (old.created_at % 86400)
    AND inbox_id = old.inbox_id AND status = old.status;
  INSERT INTO conversation_status_rollups (account_id, grain, period, inbox_id, status, count)
  VALUES
    (new.account_id, 'hour', new.created_at - (new.created_at % 3600), new.inbox_id, new.status, 1),
    (new.account_id, 'day', new.created_at - (new.created_at % 86400), new.inbox_id, new.status, 1)
  ON CONFLICT (account_id, grain, period, inbox_id, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `conversation_status_rollups_delete` AFTER DELETE ON `conversations` BEGIN
  UPDATE conversation_status_rollups SET count = count - 1
  WHERE account_id = old.account_id AND grain = 'hour'
    AND period = old.created_at - (old.created_at % 3600)
    AND inbox_id = old.inbox_id AND status = old.status;
  UPDATE conversation_status_rollups SET count = count - 1
  WHERE account_id = old.account_id AND grain = 'day'
    AND period = old.created_at - (old.created_at % 86400)
    AND inbox_id = old.inbox_id AND status = old.status;
END;
--> statement-breakpoint
-- The conversations already stored.
INSERT INTO conversation_status_rollups (account_id, grain, period, inbox_id, status, count)
SELECT c.account_id, g.grain,
  c.created_at - (c.created_at % CASE g.grain WHEN 'hour' THEN 3600 ELSE 86400 END),
  c.inbox_id, c.status, COUNT(*)
FROM conversations c, (SELECT 'hour' AS grain UNION ALL SELECT 'day') g
GROUP BY 1, 2, 3, 4, 5;
