-- One row per (outbox event, automation rule) that ran: the queue can hand an event over again,
-- and a rule claims its pair here before acting, so its actions run at most once per event.
-- The cron sweep deletes rows as old as the outbox retention (by created_at, hence the index).
CREATE TABLE `automation_runs` (
	`event_id` integer NOT NULL,
	`rule_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`event_id`, `rule_id`)
);
--> statement-breakpoint
CREATE INDEX `automation_runs_created` ON `automation_runs` (`created_at`);