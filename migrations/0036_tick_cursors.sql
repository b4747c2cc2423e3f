CREATE TABLE `tick_cursors` (
	`name` text PRIMARY KEY NOT NULL,
	`after` integer NOT NULL
);
