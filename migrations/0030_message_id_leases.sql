CREATE TABLE `id_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`next_id` integer NOT NULL
);
