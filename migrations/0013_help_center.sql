CREATE TABLE `help_articles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`portal_id` integer NOT NULL,
	`category_id` integer,
	`locale` text NOT NULL,
	`author_id` integer,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`description` text,
	`status` integer DEFAULT 0 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`associated_article_id` integer,
	`folder_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `help_categories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `help_articles_slug_unique` ON `help_articles` (`portal_id`,`slug`);--> statement-breakpoint
CREATE INDEX `help_articles_public_idx` ON `help_articles` (`portal_id`,`status`,`locale`,`category_id`,`position`);--> statement-breakpoint
CREATE INDEX `help_articles_popular_idx` ON `help_articles` (`portal_id`,`status`,`locale`,`views`);--> statement-breakpoint
CREATE INDEX `help_articles_category_idx` ON `help_articles` (`category_id`);--> statement-breakpoint
CREATE INDEX `help_articles_associated_idx` ON `help_articles` (`associated_article_id`);--> statement-breakpoint
CREATE TABLE `help_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`portal_id` integer NOT NULL,
	`locale` text NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`icon` text,
	`position` integer DEFAULT 0 NOT NULL,
	`parent_category_id` integer,
	`associated_category_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`portal_id`) REFERENCES `portals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `help_categories_slug_unique` ON `help_categories` (`portal_id`,`locale`,`slug`);--> statement-breakpoint
CREATE TABLE `portals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`color` text,
	`custom_domain` text,
	`header_text` text,
	`homepage_link` text,
	`page_title` text,
	`allowed_locales` text DEFAULT '["en"]' NOT NULL,
	`default_locale` text DEFAULT 'en' NOT NULL,
	`inbox_id` integer,
	`logo_key` text,
	`logo_filename` text,
	`logo_content_type` text,
	`content_version` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portals_slug_unique` ON `portals` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `portals_custom_domain_unique` ON `portals` (`custom_domain`);--> statement-breakpoint
CREATE INDEX `portals_account_idx` ON `portals` (`account_id`);