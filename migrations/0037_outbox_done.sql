ALTER TABLE `event_outbox` ADD `done_at` integer;--> statement-breakpoint
CREATE INDEX `event_outbox_undone` ON `event_outbox` (`done_at`,`sent_at`);--> statement-breakpoint
-- Rows relayed before this migration had their listeners run (or are in the queue now): not relayed again.
UPDATE `event_outbox` SET `done_at` = `sent_at` WHERE `sent_at` IS NOT NULL;
