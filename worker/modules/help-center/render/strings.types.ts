/** The help center's own words, one set per language (strings.ts picks one for a page). */
export type Strings = {
  search: string;
  searchButton: string;
  categories: string;
  popular: string;
  articles: (n: number) => string;
  noArticles: string;
  home: string;
  results: (n: number, query: string) => string;
  noMatch: (query: string) => string;
  notFound: string;
  notFoundText: string;
  backHome: string;
  updated: string;
  related: string;
  contents: string;
  language: string;
  /** "Was this helpful?" under an article (render/feedback.ts). */
  helpful: string;
  yes: string;
  no: string;
  thanks: string;
  addMore: string;
  whatMissing: string;
  send: string;
  sent: string;
  tooMany: string;
  notSaved: string;
  backToArticle: string;
};
