/**
 * The help center's own words (not the portal's content) in each language a portal may offer;
 * at least the widget's (en, fr, es, ar), plus German. A locale without its own set reads its
 * base language's (`pt_BR` → `pt`), else English.
 */
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
};

const en: Strings = {
  search: "Search articles",
  searchButton: "Search",
  categories: "Categories",
  popular: "Popular articles",
  articles: (n) => (n === 1 ? "1 article" : `${n} articles`),
  noArticles: "No articles yet.",
  home: "Home",
  results: (n, q) => (n === 1 ? `1 result for “${q}”` : `${n} results for “${q}”`),
  noMatch: (q) => `No articles match “${q}”. Try other words, or browse the categories.`,
  notFound: "Page not found",
  notFoundText: "The page you asked for does not exist or is not public. Search, or start over:",
  backHome: "Go to the help center home",
  updated: "Last updated",
  related: "Related articles",
  contents: "Contents",
  language: "Language",
};

const fr: Strings = {
  search: "Rechercher des articles",
  searchButton: "Rechercher",
  categories: "Catégories",
  popular: "Articles populaires",
  articles: (n) => (n <= 1 ? `${n} article` : `${n} articles`),
  noArticles: "Aucun article pour l’instant.",
  home: "Accueil",
  results: (n, q) => (n <= 1 ? `${n} résultat pour « ${q} »` : `${n} résultats pour « ${q} »`),
  noMatch: (q) => `Aucun article ne correspond à « ${q} ». Essayez d’autres mots.`,
  notFound: "Page introuvable",
  notFoundText:
    "Cette page n’existe pas ou n’est pas publique. Cherchez, ou repartez de l’accueil :",
  backHome: "Aller à l’accueil du centre d’aide",
  updated: "Mis à jour le",
  related: "Articles liés",
  contents: "Sommaire",
  language: "Langue",
};

const es: Strings = {
  search: "Buscar artículos",
  searchButton: "Buscar",
  categories: "Categorías",
  popular: "Artículos populares",
  articles: (n) => (n === 1 ? "1 artículo" : `${n} artículos`),
  noArticles: "Todavía no hay artículos.",
  home: "Inicio",
  results: (n, q) => (n === 1 ? `1 resultado para «${q}»` : `${n} resultados para «${q}»`),
  noMatch: (q) => `Ningún artículo coincide con «${q}». Prueba con otras palabras.`,
  notFound: "Página no encontrada",
  notFoundText: "La página no existe o no es pública. Busca, o vuelve al inicio:",
  backHome: "Ir al inicio del centro de ayuda",
  updated: "Última actualización",
  related: "Artículos relacionados",
  contents: "Contenido",
  language: "Idioma",
};

const ar: Strings = {
  search: "ابحث في المقالات",
  searchButton: "بحث",
  categories: "الفئات",
  popular: "المقالات الشائعة",
  articles: (n) => `${n} مقالة`,
  noArticles: "لا توجد مقالات بعد.",
  home: "الرئيسية",
  results: (n, q) => `${n} نتيجة لـ «${q}»`,
  noMatch: (q) => `لا توجد مقالات تطابق «${q}». جرّب كلمات أخرى.`,
  notFound: "الصفحة غير موجودة",
  notFoundText: "الصفحة المطلوبة غير موجودة أو غير عامة. ابحث أو ابدأ من جديد:",
  backHome: "العودة إلى الصفحة الرئيسية لمركز المساعدة",
  updated: "آخر تحديث",
  related: "مقالات ذات صلة",
  contents: "المحتويات",
  language: "اللغة",
};

const de: Strings = {
  search: "Artikel durchsuchen",
  searchButton: "Suchen",
  categories: "Kategorien",
  popular: "Beliebte Artikel",
  articles: (n) => (n === 1 ? "1 Artikel" : `${n} Artikel`),
  noArticles: "Noch keine Artikel.",
  home: "Start",
  results: (n, q) => (n === 1 ? `1 Ergebnis für „${q}“` : `${n} Ergebnisse für „${q}“`),
  noMatch: (q) => `Kein Artikel passt zu „${q}“. Versuchen Sie andere Wörter.`,
  notFound: "Seite nicht gefunden",
  notFoundText: "Diese Seite gibt es nicht oder sie ist nicht öffentlich. Suchen Sie, oder:",
  backHome: "Zur Startseite des Hilfecenters",
  updated: "Zuletzt aktualisiert",
  related: "Verwandte Artikel",
  contents: "Inhalt",
  language: "Sprache",
};

const SETS: Record<string, Strings> = { en, fr, es, ar, de };

export function stringsFor(locale: string): Strings {
  const base = locale.toLowerCase().split(/[-_]/)[0] ?? "en";
  return SETS[locale] ?? SETS[base] ?? en;
}

/** Right-to-left scripts, for the page's `dir`. */
export const isRtl = (locale: string) => /^(ar|he|fa|ur)([-_]|$)/i.test(locale);
