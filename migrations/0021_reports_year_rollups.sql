-- Year rollups: a summary over a year read twelve month rows per id and metric (3,600 rows for
-- 300 agents); a calendar year is now one row per id and metric, and a year less an edge day
-- reads the year row less a day row. The trigger gains the year grain (four grains: within
-- D1's five-term compound SELECT limit); existing rollups get their year rows from the month
-- rows (exact: a year is its twelve months).
DROP TRIGGER `reporting_events_rollup`;
--> statement-breakpoint
CREATE TRIGGER `reporting_events_rollup` AFTER INSERT ON `reporting_events` BEGIN
  INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id,
    count, sum_value, sum_value_in_business_hours)
  SELECT new.account_id, d.dimension, g.grain, new.name, g.period, d.id, 1, new.value,
    new.value_in_business_hours
  FROM (
    SELECT column1 AS dimension, column2 AS id FROM (VALUES ('account', 0), ('user', new.user_id),
      ('team', new.team_id), ('inbox', new.inbox_id)) WHERE column2 IS NOT NULL
    UNION ALL SELECT 'label', new.label_id WHERE new.label_id IS NOT NULL
    UNION ALL SELECT 'label', l.id FROM conversation_labels cl
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
INSERT INTO reporting_rollups (account_id, dimension, grain, metric, period, dimension_id,
  count, sum_value, sum_value_in_business_hours)
SELECT account_id, dimension, 'year', metric,
  CAST(strftime('%s', period, 'unixepoch', 'start of year') AS INTEGER), dimension_id,
  SUM(count), SUM(sum_value), SUM(sum_value_in_business_hours)
FROM reporting_rollups WHERE grain = 'month'
GROUP BY 1, 2, 3, 4, 5, 6;
