CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`domain` text,
	`support_email` text,
	`status` text DEFAULT 'active' NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`features` text DEFAULT '{}' NOT NULL,
	`limits` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `account_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text DEFAULT 'agent' NOT NULL,
	`availability` text DEFAULT 'online' NOT NULL,
	`auto_offline` integer DEFAULT true NOT NULL,
	`inviter_id` integer,
	`active_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inviter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_users_account_user_unique` ON `account_users` (`account_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`display_name` text,
	`email` text NOT NULL,
	`password_hash` text,
	`avatar_url` text,
	`confirmed` integer DEFAULT true NOT NULL,
	`message_signature` text,
	`ui_settings` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`type` text,
	`pubsub_token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `access_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_token_unique` ON `access_tokens` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_owner_unique` ON `access_tokens` (`owner_type`,`owner_id`);--> statement-breakpoint
CREATE TABLE `platform_app_permissibles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`platform_app_id` integer NOT NULL,
	`permissible_type` text NOT NULL,
	`permissible_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`platform_app_id`) REFERENCES `platform_apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_app_permissibles_unique` ON `platform_app_permissibles` (`platform_app_id`,`permissible_type`,`permissible_id`);--> statement-breakpoint
CREATE INDEX `platform_app_permissibles_target` ON `platform_app_permissibles` (`permissible_type`,`permissible_id`);--> statement-breakpoint
CREATE TABLE `platform_apps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `inbox_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inbox_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbox_members_unique` ON `inbox_members` (`inbox_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `inbox_members_user` ON `inbox_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `inboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`channel_type` text NOT NULL,
	`inbox_identifier` text NOT NULL,
	`hmac_token` text NOT NULL,
	`hmac_mandatory` integer DEFAULT false NOT NULL,
	`webhook_url` text,
	`avatar_url` text,
	`website_url` text,
	`widget_color` text DEFAULT '#1f93ff' NOT NULL,
	`welcome_title` text,
	`welcome_tagline` text,
	`greeting_enabled` integer DEFAULT false NOT NULL,
	`greeting_message` text,
	`enable_email_collect` integer DEFAULT true NOT NULL,
	`csat_survey_enabled` integer DEFAULT false NOT NULL,
	`enable_auto_assignment` integer DEFAULT true NOT NULL,
	`working_hours_enabled` integer DEFAULT false NOT NULL,
	`working_hours` text DEFAULT '[]' NOT NULL,
	`out_of_office_message` text,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`allow_messages_after_resolved` integer DEFAULT true NOT NULL,
	`lock_to_single_conversation` integer DEFAULT false NOT NULL,
	`business_name` text,
	`reply_time` text DEFAULT 'in_a_few_minutes' NOT NULL,
	`pre_chat_form_enabled` integer DEFAULT false NOT NULL,
	`pre_chat_form_options` text DEFAULT '{}' NOT NULL,
	`locale` text,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inboxes_identifier_unique` ON `inboxes` (`inbox_identifier`);--> statement-breakpoint
CREATE INDEX `inboxes_account` ON `inboxes` (`account_id`);--> statement-breakpoint
CREATE TABLE `agent_bot_inboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inbox_id` integer NOT NULL,
	`agent_bot_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_bot_id`) REFERENCES `agent_bots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_bot_inboxes_inbox_unique` ON `agent_bot_inboxes` (`inbox_id`);--> statement-breakpoint
CREATE TABLE `agent_bots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`thumbnail` text,
	`outgoing_url` text,
	`bot_type` text DEFAULT 'webhook' NOT NULL,
	`bot_config` text DEFAULT '{}' NOT NULL,
	`account_id` integer,
	`secret` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `team_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`team_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_members_unique` ON `team_members` (`team_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`allow_auto_assign` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_account_name_unique` ON `teams` (`account_id`,`name`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`color` text DEFAULT '#1f93ff' NOT NULL,
	`show_on_sidebar` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_account_title_unique` ON `labels` (`account_id`,`title`);