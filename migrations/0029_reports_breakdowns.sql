CREATE INDEX `conversations_account_created` ON `conversations` (`account_id`,`created_at`,`inbox_id`,`status`);--> statement-breakpoint
-- Two more rollups for the breakdown reports (docs/reports.md), kept by the same trigger so they
-- are exact in the event's batch: first responses per inbox by Chatwoot's response-time buckets
-- (metric `first_response:0-1h` … `first_response:24h+`; FirstResponseTimeDistributionBuilder's
-- edges), and conversation_labelled per inbox and label (dimension `inbox_label`, id
-- inbox_id * 2^32 + label_id). The fixed dimensions stay one multi-row VALUES (D1 allows five
-- terms in a compound SELECT); a row's metric is the event's name unless it names another.
DROP TRIGGER `reporting_events_rollup`;
--> statement-breakpoint
CREATE TRIGGER `reporting_events_rollup` AFTER INSERT ON `reporting_events` BEGIN
  INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id,
    count, sum_value, sum_value_in_business_hours)
  SELECT new.account_id, d.dimension, g.grain, COALESCE(d.metric, new.name), g.period, d.id, 1,
    new.value, new.value_in_business_hours
  FROM (
    SELECT column1 AS dimension, column2 AS id, column3 AS metric FROM (VALUES
      ('account', 0, NULL), ('user', new.user_id, NULL), ('team', new.team_id, NULL),
      ('inbox', new.inbox_id, NULL),
      ('inbox', CASE WHEN new.name = 'first_response' THEN new.inbox_id END,
        CASE WHEN new.value < 3600 THEN 'first_response:0-1h'
          WHEN new.value < 14400 THEN 'first_response:1-4h'
          WHEN new.value < 28800 THEN 'first_response:4-8h'
          WHEN new.value < 86400 THEN 'first_response:8-24h'
          ELSE 'first_response:24h+' END),
      ('inbox_label', CASE WHEN new.name = 'conversation_labelled'
        THEN new.inbox_id * 4294967296 + new.label_id END, NULL))
    WHERE column2 IS NOT NULL
    UNION ALL SELECT 'label', new.label_id, NULL WHERE new.label_id IS NOT NULL
    UNION ALL SELECT 'label', l.id, NULL FROM conversation_labels cl
      JOIN labels l ON l.account_id = new.account_id AND l.title = cl.title
      WHERE cl.conversation_id = new.conversation_id AND new.label_id IS NULL
  ) d, (
    SELECT 'hour' AS grain, new.created_at - (new.created_at % 3600) AS period
    UNION ALL SELECT 'day', new.created_at - (new.created_at % 86400)
    UNION ALL SELECT 'month',
      CAST(strftime('%s', new.created_at, 'unixepoch', 'start of month') AS INTEGER)
    UNION ALL SELECT 'year',
      CAST(strftime('%s', new.created_at, 'unixepoch', 'start of year') AS INTEGER)
  ) g
  WHERE true
  ON CONFLICT (account_id, dimension, grain, metric, period, dimension_id) DO UPDATE SET
    count = count + 1,
    sum_value = sum_value + excluded.sum_value,
    sum_value_in_business_hours = sum_value_in_business_hours + excluded.sum_value_in_business_hours;
END;
--> statement-breakpoint
-- The new rollups of the events already recorded, four grains each.
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id,
  count, sum_value, sum_value_in_business_hours)
SELECT e.account_id, d.dimension, g.grain, d.metric,
  CASE g.grain WHEN 'hour' THEN e.created_at - (e.created_at % 3600)
    WHEN 'day' THEN e.created_at - (e.created_at % 86400)
    WHEN 'month' THEN CAST(strftime('%s', e.created_at, 'unixepoch', 'start of month') AS INTEGER)
    ELSE CAST(strftime('%s', e.created_at, 'unixepoch', 'start of year') AS INTEGER) END,
  d.id, COUNT(*), SUM(e.value), SUM(e.value_in_business_hours)
FROM reporting_events e, (
  SELECT 'hour' AS grain UNION ALL SELECT 'day' UNION ALL SELECT 'month' UNION ALL SELECT 'year'
) g, (
  SELECT re.id AS event_id, 'inbox' AS dimension, re.inbox_id AS id,
    CASE WHEN re.value < 3600 THEN 'first_response:0-1h'
      WHEN re.value < 14400 THEN 'first_response:1-4h'
      WHEN re.value < 28800 THEN 'first_response:4-8h'
      WHEN re.value < 86400 THEN 'first_response:8-24h'
      ELSE 'first_response:24h+' END AS metric
  FROM reporting_events re WHERE re.name = 'first_response' AND re.inbox_id IS NOT NULL
  UNION ALL SELECT re.id, 'inbox_label', re.inbox_id * 4294967296 + re.label_id, re.name
  FROM reporting_events re WHERE re.name = 'conversation_labelled'
    AND re.inbox_id IS NOT NULL AND re.label_id IS NOT NULL
) d
WHERE d.event_id = e.id
GROUP BY 1, 2, 3, 4, 5, 6;
