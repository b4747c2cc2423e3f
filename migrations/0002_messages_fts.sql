-- Full-text index over message content for conversation search (`q`), kept in step with every
-- write by triggers. External-content FTS5: the text lives once, in `messages`.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(
  content,
  content='messages',
  content_rowid='id',
  tokenize='unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` WHEN new.content IS NOT NULL BEGIN
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` WHEN old.content IS NOT NULL BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF content ON `messages` BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content)
    SELECT 'delete', old.id, old.content WHERE old.content IS NOT NULL;
  INSERT INTO messages_fts(rowid, content)
    SELECT new.id, new.content WHERE new.content IS NOT NULL;
END;
