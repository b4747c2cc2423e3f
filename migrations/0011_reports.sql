CREATE TABLE `reporting_calendars` (
	`inbox_id` integer PRIMARY KEY NOT NULL,
	`signature` text NOT NULL,
	`from` integer NOT NULL,
	`to` integer NOT NULL,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reporting_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` real DEFAULT 0 NOT NULL,
	`value_in_business_hours` real DEFAULT 0 NOT NULL,
	`inbox_id` integer,
	`user_id` integer,
	`team_id` integer,
	`conversation_id` integer,
	`event_start_time` integer NOT NULL,
	`event_end_time` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reporting_events_account_name_created` ON `reporting_events` (`account_id`,`name`,`created_at`);--> statement-breakpoint
CREATE INDEX `reporting_events_conversation_name` ON `reporting_events` (`conversation_id`,`name`);--> statement-breakpoint
CREATE TABLE `reporting_hours` (
	`inbox_id` integer NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`before` integer NOT NULL,
	PRIMARY KEY(`inbox_id`, `start`),
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reporting_rollups` (
	`account_id` integer NOT NULL,
	`dimension` text NOT NULL,
	`grain` text NOT NULL,
	`metric` text NOT NULL,
	`period` integer NOT NULL,
	`dimension_id` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`sum_value` real DEFAULT 0 NOT NULL,
	`sum_value_in_business_hours` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `dimension`, `grain`, `metric`, `period`, `dimension_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reporting_rollups_series` ON `reporting_rollups` (`account_id`,`dimension`,`dimension_id`,`grain`,`metric`,`period`);