-- Verified custom domains (issue 20): a portal's custom_domain is a claim until the account
-- publishes domain_token as TXT at _parley-challenge.<domain> and asks for verification. Pending
-- claims of one domain may coexist (a squatter never blocks the owner); only one portal holds a
-- domain verified, and only a verified domain is served.
DROP INDEX `portals_custom_domain_unique`;--> statement-breakpoint
ALTER TABLE `portals` ADD `domain_token` text;--> statement-breakpoint
ALTER TABLE `portals` ADD `domain_verified_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `portals_verified_domain_unique` ON `portals` (`custom_domain`) WHERE "portals"."domain_verified_at" IS NOT NULL;--> statement-breakpoint
-- Domains set before verification existed were never proved: they go back to pending, each with
-- a token of its own to publish.
UPDATE `portals` SET `domain_token` = lower(hex(randomblob(20))) WHERE `custom_domain` IS NOT NULL;
