/** One public help-center response before caching: what routes.public.ts sends. */
export type PublicResult = {
  status: 200 | 404;
  body: string;
  type: string;
  /** Set on an article page: the view to count. */
  articleId?: number;
};
