-- "Was this helpful?" on public help-center articles (issue 24): one vote per visitor cookie and
-- article (the cookie's SHA-256, no address), with an optional short comment.
CREATE TABLE `help_article_feedback` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`article_id` integer NOT NULL,
	`visitor` text NOT NULL,
	`helpful` integer NOT NULL,
	`comment` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`article_id`) REFERENCES `help_articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `help_article_feedback_visitor_unique` ON `help_article_feedback` (`article_id`,`visitor`);--> statement-breakpoint
CREATE INDEX `help_article_feedback_counts_idx` ON `help_article_feedback` (`article_id`,`helpful`);