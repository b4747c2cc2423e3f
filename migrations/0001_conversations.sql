CREATE TABLE `custom_attribute_definitions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`attribute_display_name` text NOT NULL,
	`attribute_key` text NOT NULL,
	`attribute_display_type` text NOT NULL,
	`attribute_model` text NOT NULL,
	`attribute_description` text,
	`attribute_values` text DEFAULT '[]' NOT NULL,
	`regex_pattern` text,
	`regex_cue` text,
	`default_value` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_attribute_definitions_key_unique` ON `custom_attribute_definitions` (`account_id`,`attribute_model`,`attribute_key`);--> statement-breakpoint
CREATE TABLE `contact_inboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`source_id` text NOT NULL,
	`hmac_verified` integer DEFAULT false NOT NULL,
	`pubsub_token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_inboxes_inbox_source_unique` ON `contact_inboxes` (`inbox_id`,`source_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `contact_inboxes_pubsub_unique` ON `contact_inboxes` (`pubsub_token`);--> statement-breakpoint
CREATE INDEX `contact_inboxes_contact` ON `contact_inboxes` (`contact_id`);--> statement-breakpoint
CREATE TABLE `contact_labels` (
	`contact_id` integer NOT NULL,
	`title` text NOT NULL,
	PRIMARY KEY(`contact_id`, `title`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_labels_title` ON `contact_labels` (`title`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text,
	`phone_number` text,
	`identifier` text,
	`blocked` integer DEFAULT false NOT NULL,
	`avatar_url` text,
	`contact_type` text DEFAULT 'visitor' NOT NULL,
	`middle_name` text,
	`last_name` text,
	`location` text,
	`country_code` text,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`last_activity_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_account_email_unique` ON `contacts` (`account_id`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_account_identifier_unique` ON `contacts` (`account_id`,`identifier`);--> statement-breakpoint
CREATE INDEX `contacts_account_name` ON `contacts` (`account_id`,`name`);--> statement-breakpoint
CREATE INDEX `contacts_account_phone` ON `contacts` (`account_id`,`phone_number`);--> statement-breakpoint
CREATE INDEX `contacts_account_last_activity` ON `contacts` (`account_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `contacts_account_created` ON `contacts` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `conversation_labels` (
	`conversation_id` integer NOT NULL,
	`title` text NOT NULL,
	PRIMARY KEY(`conversation_id`, `title`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_labels_title` ON `conversation_labels` (`title`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`display_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`inbox_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`contact_inbox_id` integer,
	`status` text DEFAULT 'open' NOT NULL,
	`priority` text,
	`assignee_id` integer,
	`team_id` integer,
	`snoozed_until` integer,
	`muted` integer DEFAULT false NOT NULL,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`agent_last_seen_at` integer,
	`assignee_last_seen_at` integer,
	`contact_last_seen_at` integer,
	`first_reply_created_at` integer,
	`waiting_since` integer,
	`last_activity_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_inbox_id`) REFERENCES `contact_inboxes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_account_display_unique` ON `conversations` (`account_id`,`display_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_uuid_unique` ON `conversations` (`uuid`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_activity` ON `conversations` (`account_id`,`status`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_activity` ON `conversations` (`account_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox` ON `conversations` (`inbox_id`);--> statement-breakpoint
CREATE INDEX `conversations_contact` ON `conversations` (`contact_id`);--> statement-breakpoint
CREATE INDEX `conversations_assignee` ON `conversations` (`assignee_id`);--> statement-breakpoint
CREATE INDEX `conversations_team` ON `conversations` (`team_id`);--> statement-breakpoint
CREATE TABLE `attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`file_type` text NOT NULL,
	`storage_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`file_size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attachments_message` ON `attachments` (`message_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`content` text,
	`message_type` integer NOT NULL,
	`content_type` text DEFAULT 'text' NOT NULL,
	`content_attributes` text DEFAULT '{}' NOT NULL,
	`private` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'sent' NOT NULL,
	`source_id` text,
	`sender_type` text,
	`sender_id` integer,
	`external_source_ids` text DEFAULT '{}' NOT NULL,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`sentiment` text DEFAULT '{}' NOT NULL,
	`echo_id` text,
	`idempotency_key` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_conversation_seq_unique` ON `messages` (`conversation_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_conversation_idempotency_unique` ON `messages` (`conversation_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `messages_account_created` ON `messages` (`account_id`,`created_at`);