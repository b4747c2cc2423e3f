-- Rollups follow every reporting event in the statement that inserts it (same batch, same
-- transaction), whoever writes it: the event pipeline, the rebuild script, a backfill.
-- One row per dimension (the account as id 0, the user, team and inbox of the event, each label
-- the conversation carries at that moment) and per grain (UTC day and UTC month).
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
    SELECT 'day' AS grain, new.created_at - (new.created_at % 86400) AS period
    UNION ALL SELECT 'month',
      CAST(strftime('%s', new.created_at, 'unixepoch', 'start of month') AS INTEGER)
  ) g
  WHERE true
  ON CONFLICT (account_id, dimension, grain, metric, period, dimension_id) DO UPDATE SET
    count = count + 1,
    sum_value = sum_value + excluded.sum_value,
    sum_value_in_business_hours = sum_value_in_business_hours + excluded.sum_value_in_business_hours;
END;
