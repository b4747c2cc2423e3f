DROP INDEX `webhook_deliveries_event_target_unique`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `last_latency_ms` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_target_name_unique` ON `webhook_deliveries` (`event_id`,`target_type`,`target_id`,`event`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `event_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_account_url_unique` ON `webhooks` (`account_id`,`url`);