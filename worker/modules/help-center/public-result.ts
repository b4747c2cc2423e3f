/** One public help-center response before caching: what routes.public.ts sends. */
export type PublicResult = {
  status: 200 | 302 | 404;
  body: string;
  type: string;
  /** Set on an article page: the view to count. */
  articleId?: number;
  /** Where a 302 leads (a path of the same portal). */
  location?: string;
};
