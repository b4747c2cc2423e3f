CREATE TABLE `csat_survey_responses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`contact_id` integer,
	`assigned_agent_id` integer,
	`team_id` integer,
	`rating` integer NOT NULL,
	`feedback_message` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`assigned_agent_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `csat_survey_responses_message_unique` ON `csat_survey_responses` (`message_id`);--> statement-breakpoint
CREATE INDEX `csat_survey_responses_account_created` ON `csat_survey_responses` (`account_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `assignment_queued_at` integer;--> statement-breakpoint
CREATE INDEX `conversations_assignment_queue` ON `conversations` (`inbox_id`,`assignment_queued_at`) WHERE "conversations"."assignment_queued_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `conversations_assignee_inbox_status` ON `conversations` (`assignee_id`,`inbox_id`,`status`);--> statement-breakpoint
ALTER TABLE `inbox_members` ADD `last_assigned_at` integer;--> statement-breakpoint
ALTER TABLE `inboxes` ADD `auto_assignment_config` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `account_users` ADD `connected_at` integer;