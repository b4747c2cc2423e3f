CREATE TABLE `sign_in_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`ip` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_email_at_idx` ON `sign_in_failures` (`email`,`at`);--> statement-breakpoint
CREATE INDEX `sign_in_failures_at_idx` ON `sign_in_failures` (`at`);--> statement-breakpoint
ALTER TABLE `contact_inboxes` ADD `joined_by_identifier` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `contact_inboxes` ADD `claimed` text DEFAULT '{}' NOT NULL;