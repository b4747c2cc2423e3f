-- The contact filter counts every match (Chatwoot's meta.count) and pages them newest-active
-- first, and every contact query is limited to "resolved" contacts. Partial indexes whose WHERE
-- is that same test, ending in last_activity_at, let SQLite count a city or company from the
-- index alone and read a page in order without sorting the matches; the plain expression
-- indexes of 0004 made it fetch and sort every matching row, so the cost grew with the data.
-- The WHERE text must stay the `resolved` condition of worker/modules/contacts/queries.ts.
DROP INDEX IF EXISTS `contacts_account_city`;
--> statement-breakpoint
DROP INDEX IF EXISTS `contacts_account_company_name`;
--> statement-breakpoint
CREATE INDEX `contacts_account_city` ON `contacts` (`account_id`, lower(json_extract(`additional_attributes`, '$.city')), `last_activity_at`) WHERE (`email` <> '' OR `phone_number` <> '' OR `identifier` <> '');
--> statement-breakpoint
CREATE INDEX `contacts_account_company_name` ON `contacts` (`account_id`, lower(json_extract(`additional_attributes`, '$.company_name')), `last_activity_at`) WHERE (`email` <> '' OR `phone_number` <> '' OR `identifier` <> '');
