import type { PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidFields } from "../../lib/errors";
import {
  commentedCount,
  commentedFeedback,
  feedbackCounts,
  upsertFeedback,
} from "./queries.feedback";
import { publishedArticle } from "./queries.public";
import { COMMENT_MAX } from "./render/feedback";

export type Vote = { helpful: boolean; comment: string | null };

/** A form body's vote: `helpful` yes or no, an optional `comment` of at most COMMENT_MAX. */
export function parseVote(form: URLSearchParams): Vote {
  const helpful = form.get("helpful");
  const comment = (form.get("comment") ?? "").trim();
  const problems = [
    ...(helpful === "yes" || helpful === "no"
      ? []
      : [{ path: "helpful", message: "must be yes or no" }]),
    ...([...comment].length > COMMENT_MAX
      ? [{ path: "comment", message: `must be at most ${COMMENT_MAX} characters` }]
      : []),
  ];
  if (problems.length > 0) {
    throw invalidFields(problems);
  }
  return { helpful: helpful === "yes", comment: comment === "" ? null : comment };
}

/** The visitor cookie as stored: its SHA-256, so the table never holds a usable cookie. */
export async function visitorKey(cookie: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(cookie));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new visitor cookie: 128 random bits, base64url. */
export function newVisitorCookie(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The public article a vote is for: published, in one of the portal's locales; else 404. */
export async function votableArticle(deps: Deps, portal: PortalRow, slug: string) {
  const row = await publishedArticle(deps.db, portal.id, slug);
  if (!row || !portal.allowedLocales.includes(row.locale)) {
    throw new ApiError("not_found", "No such article");
  }
  return row;
}

/** Records the vote: the visitor's one row for the article, created or changed. */
export async function recordVote(deps: Deps, articleId: number, cookie: string, vote: Vote) {
  await upsertFeedback(deps.db, { articleId, visitor: await visitorKey(cookie), ...vote });
}

export type FeedbackCounts = { helpful_count: number; not_helpful_count: number };

/** Votes per article, for the article records (one grouped read for a whole page of them). */
export async function feedbackByArticle(
  deps: Deps,
  articleIds: number[],
): Promise<Map<number, FeedbackCounts>> {
  const rows = await feedbackCounts(deps.db, articleIds);
  const out = new Map<number, FeedbackCounts>();
  for (const r of rows) {
    const c = out.get(r.articleId) ?? { helpful_count: 0, not_helpful_count: 0 };
    c[r.helpful ? "helpful_count" : "not_helpful_count"] += r.n;
    out.set(r.articleId, c);
  }
  return out;
}

export const FEEDBACK_PER_PAGE = 25;

/** An article's comments, newest first, with its counts (the account API's report). */
export async function listFeedback(deps: Deps, articleId: number, page: number) {
  const [rows, counts, commented] = await Promise.all([
    commentedFeedback(deps.db, articleId, FEEDBACK_PER_PAGE, (page - 1) * FEEDBACK_PER_PAGE),
    feedbackByArticle(deps, [articleId]),
    commentedCount(deps.db, articleId),
  ]);
  return {
    payload: rows.map((r) => ({
      id: r.id,
      helpful: r.helpful,
      comment: r.comment ?? "",
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    })),
    meta: {
      current_page: page,
      comments_count: commented,
      ...(counts.get(articleId) ?? { helpful_count: 0, not_helpful_count: 0 }),
    },
  };
}
