-- Help-center search (issue 13): the index's own term list, read-only and stored nowhere (an
-- fts5vocab view of help_articles_fts). Search asks it whether any indexed term extends a word;
-- when none does, the word is matched exactly instead of as a prefix, which finds the same
-- articles without FTS5 first merging a prefix's doclists (the costly part of a common word).
CREATE VIRTUAL TABLE `help_articles_fts_terms` USING fts5vocab(help_articles_fts, 'row');
