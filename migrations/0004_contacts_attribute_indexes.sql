-- Expression indexes for the contact filter's `city` and `company` keys, which it compares as
-- lower(json_extract(additional_attributes, '$.key')); written by hand because drizzle-kit
-- cannot express them. The filter (worker/modules/filters/contact-fields.ts) uses the same text.
CREATE INDEX `contacts_account_city` ON `contacts` (`account_id`, lower(json_extract(`additional_attributes`, '$.city')));
--> statement-breakpoint
CREATE INDEX `contacts_account_company_name` ON `contacts` (`account_id`, lower(json_extract(`additional_attributes`, '$.company_name')));
