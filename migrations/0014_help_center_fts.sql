-- Help-center search (issue 13): FTS5 over an article's title, description, tags and body,
-- searched per portal + locale through a join on help_articles. The index keeps its own copy
-- of the text (not external content) because `tags` is derived from the meta JSON, which an
-- external-content table could not re-read for its 'delete' commands. Triggers keep it in step.
CREATE VIRTUAL TABLE `help_articles_fts` USING fts5(
  title,
  description,
  tags,
  content,
  tokenize='unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_insert` AFTER INSERT ON `help_articles` BEGIN
  INSERT INTO help_articles_fts(rowid, title, description, tags, content) VALUES (
    new.id, new.title, coalesce(new.description, ''),
    coalesce((SELECT group_concat(value, ' ') FROM json_each(
      CASE WHEN json_valid(new.meta) THEN new.meta ELSE '{}' END, '$.tags')), ''),
    new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_delete` AFTER DELETE ON `help_articles` BEGIN
  DELETE FROM help_articles_fts WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_update` AFTER UPDATE OF title, description, meta, content ON `help_articles` BEGIN
  DELETE FROM help_articles_fts WHERE rowid = old.id;
  INSERT INTO help_articles_fts(rowid, title, description, tags, content) VALUES (
    new.id, new.title, coalesce(new.description, ''),
    coalesce((SELECT group_concat(value, ' ') FROM json_each(
      CASE WHEN json_valid(new.meta) THEN new.meta ELSE '{}' END, '$.tags')), ''),
    new.content);
END;
