-- Hour rollups: the edges of a range read hour rows (and raw events only inside an hour), and a
-- time series at a whole-hour timezone offset reads local days as 24 hour rows each. The
-- trigger gains the hour grain; existing events get their hour rows (labels: as they are now).
DROP TRIGGER `reporting_events_rollup`;
--> statement-breakpoint
CREATE TRIGGER `reporting_events_rollup` AFTER INSERT ON `reporting_events` BEGIN
  INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id,
    count, sum_value, sum_value_in_business_hours)
  SELECT new.account_id, d.dimension, g.grain, new.name, g.period, d.id, 1, new.value,
    new.value_in_business_hours
  FROM (
    SELECT 'account' AS dimension, 0 AS id
    UNION ALL SELECT 'user', new.user_id WHERE new.user_id IS NOT NULL
    UNION ALL SELECT 'team', new.team_id WHERE new.team_id IS NOT NULL
    UNION ALL SELECT 'inbox', new.inbox_id WHERE new.inbox_id IS NOT NULL
    UNION ALL SELECT 'label', l.id FROM conversation_labels cl
      JOIN labels l ON l.account_id = new.account_id AND l.title = cl.title
      WHERE cl.conversation_id = new.conversation_id
  ) d, (
    SELECT 'hour' AS grain, new.created_at - (new.created_at % 3600) AS period
    UNION ALL SELECT 'day', new.created_at - (new.created_at % 86400)
    UNION ALL SELECT 'month',
      CAST(strftime('%s', new.created_at, 'unixepoch', 'start of month') AS INTEGER)
  ) g
  WHERE true
  ON CONFLICT (account_id, dimension, grain, metric, period, dimension_id) DO UPDATE SET
    count = count + 1,
    sum_value = sum_value + excluded.sum_value,
    sum_value_in_business_hours = sum_value_in_business_hours + excluded.sum_value_in_business_hours;
END;
--> statement-breakpoint
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id, count,
  sum_value, sum_value_in_business_hours)
SELECT e.account_id, 'account', 'hour', e.name, e.created_at - (e.created_at % 3600), 0, COUNT(*),
  SUM(e.value), SUM(e.value_in_business_hours)
FROM reporting_events e WHERE 0 IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id, count,
  sum_value, sum_value_in_business_hours)
SELECT e.account_id, 'user', 'hour', e.name, e.created_at - (e.created_at % 3600), e.user_id, COUNT(*),
  SUM(e.value), SUM(e.value_in_business_hours)
FROM reporting_events e WHERE e.user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id, count,
  sum_value, sum_value_in_business_hours)
SELECT e.account_id, 'team', 'hour', e.name, e.created_at - (e.created_at % 3600), e.team_id, COUNT(*),
  SUM(e.value), SUM(e.value_in_business_hours)
FROM reporting_events e WHERE e.team_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id, count,
  sum_value, sum_value_in_business_hours)
SELECT e.account_id, 'inbox', 'hour', e.name, e.created_at - (e.created_at % 3600), e.inbox_id, COUNT(*),
  SUM(e.value), SUM(e.value_in_business_hours)
FROM reporting_events e WHERE e.inbox_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id, count,
  sum_value, sum_value_in_business_hours)
SELECT e.account_id, 'label', 'hour', e.name, e.created_at - (e.created_at % 3600), l.id, COUNT(*),
  SUM(e.value), SUM(e.value_in_business_hours)
FROM reporting_events e JOIN conversation_labels cl ON cl.conversation_id = e.conversation_id
  JOIN labels l ON l.account_id = e.account_id AND l.title = cl.title
GROUP BY 1, 2, 3, 4, 5, 6;
