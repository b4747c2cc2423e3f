import { and, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { helpArticleFeedback } from "../../db/schema";

/**
 * One visitor's vote on an article: a new row, or their earlier one changed. A vote that
 * changes sides drops the comment made with the other side, unless a new one comes with it.
 */
export const upsertFeedback = (
  db: Db,
  vote: { articleId: number; visitor: string; helpful: boolean; comment: string | null },
) =>
  db
    .insert(helpArticleFeedback)
    .values(vote)
    .onConflictDoUpdate({
      target: [helpArticleFeedback.articleId, helpArticleFeedback.visitor],
      set: {
        helpful: sql`excluded.helpful`,
        comment: sql`CASE WHEN excluded.comment IS NOT NULL THEN excluded.comment WHEN excluded.helpful = ${helpArticleFeedback.helpful} THEN ${helpArticleFeedback.comment} END`,
        updatedAt: sql`unixepoch()`,
      },
    })
    .run();

/** Votes per article and side, read from help_article_feedback_counts_idx alone. */
export const feedbackCounts = (db: Db, articleIds: number[]) =>
  articleIds.length === 0
    ? Promise.resolve([])
    : db
        .select({
          articleId: helpArticleFeedback.articleId,
          helpful: helpArticleFeedback.helpful,
          n: count(),
        })
        .from(helpArticleFeedback)
        .where(inArray(helpArticleFeedback.articleId, articleIds))
        .groupBy(helpArticleFeedback.articleId, helpArticleFeedback.helpful)
        .all();

const withComment = (articleId: number) =>
  and(eq(helpArticleFeedback.articleId, articleId), isNotNull(helpArticleFeedback.comment));

/** An article's votes that came with a comment, newest first (the visitor key stays inside). */
export const commentedFeedback = (db: Db, articleId: number, limit: number, offset: number) =>
  db
    .select({
      id: helpArticleFeedback.id,
      helpful: helpArticleFeedback.helpful,
      comment: helpArticleFeedback.comment,
      createdAt: helpArticleFeedback.createdAt,
      updatedAt: helpArticleFeedback.updatedAt,
    })
    .from(helpArticleFeedback)
    .where(withComment(articleId))
    .orderBy(desc(helpArticleFeedback.updatedAt), desc(helpArticleFeedback.id))
    .limit(limit)
    .offset(offset)
    .all();

export const commentedCount = async (db: Db, articleId: number) =>
  (await db.select({ n: count() }).from(helpArticleFeedback).where(withComment(articleId)).get())
    ?.n ?? 0;
