DROP INDEX `contacts_account_name`;--> statement-breakpoint
CREATE INDEX `contacts_account_name_nocase` ON `contacts` (`account_id`,"name" COLLATE NOCASE);