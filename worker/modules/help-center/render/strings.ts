/**
 * The help center's own words (not the portal's content) in each language a portal may offer:
 * the widget's (en, fr, es, ar), German, and the other languages Chatwoot's help center is most
 * used in (strings.more.ts, strings.east.ts). A locale without its own set reads its base
 * language's (`pt-PT` → `pt`, `zh` → `zh_CN`), else English.
 */

import { ja, ko, zh_CN, zh_TW } from "./strings.east";
import { it, nl, pt, pt_BR, ru } from "./strings.more";
import type { Strings } from "./strings.types";

export type { Strings };

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
  helpful: "Was this article helpful?",
  yes: "Yes",
  no: "No",
  thanks: "Thanks for your feedback!",
  addMore: "Anything we could add? (optional)",
  whatMissing: "What was missing or unclear? (optional)",
  send: "Send",
  sent: "Thank you, your comment was sent.",
  tooMany: "Too many votes from your network just now. Please try again in a minute.",
  notSaved: "Your feedback could not be saved.",
  backToArticle: "Back to the article",
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
  helpful: "Cet article vous a-t-il aidé ?",
  yes: "Oui",
  no: "Non",
  thanks: "Merci de votre avis !",
  addMore: "Quelque chose à ajouter ? (facultatif)",
  whatMissing: "Qu’est-ce qui manquait ou n’était pas clair ? (facultatif)",
  send: "Envoyer",
  sent: "Merci, votre commentaire a été envoyé.",
  tooMany: "Trop de votes depuis votre réseau. Réessayez dans une minute.",
  notSaved: "Votre avis n’a pas pu être enregistré.",
  backToArticle: "Retour à l’article",
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
  helpful: "¿Te ha resultado útil este artículo?",
  yes: "Sí",
  no: "No",
  thanks: "¡Gracias por tu opinión!",
  addMore: "¿Algo que podamos añadir? (opcional)",
  whatMissing: "¿Qué faltaba o no estaba claro? (opcional)",
  send: "Enviar",
  sent: "Gracias, tu comentario se ha enviado.",
  tooMany: "Demasiados votos desde tu red. Inténtalo de nuevo en un minuto.",
  notSaved: "No se ha podido guardar tu opinión.",
  backToArticle: "Volver al artículo",
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
  helpful: "هل كانت هذه المقالة مفيدة؟",
  yes: "نعم",
  no: "لا",
  thanks: "شكرًا على ملاحظاتك!",
  addMore: "هل من شيء نضيفه؟ (اختياري)",
  whatMissing: "ما الذي كان ناقصًا أو غير واضح؟ (اختياري)",
  send: "إرسال",
  sent: "شكرًا، تم إرسال تعليقك.",
  tooMany: "أصوات كثيرة من شبكتك الآن. حاول مجددًا بعد دقيقة.",
  notSaved: "تعذّر حفظ ملاحظاتك.",
  backToArticle: "العودة إلى المقالة",
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
  helpful: "War dieser Artikel hilfreich?",
  yes: "Ja",
  no: "Nein",
  thanks: "Danke für Ihr Feedback!",
  addMore: "Möchten Sie etwas ergänzen? (optional)",
  whatMissing: "Was hat gefehlt oder war unklar? (optional)",
  send: "Senden",
  sent: "Danke, Ihr Kommentar wurde gesendet.",
  tooMany: "Gerade zu viele Stimmen aus Ihrem Netz. Bitte versuchen Sie es in einer Minute erneut.",
  notSaved: "Ihr Feedback konnte nicht gespeichert werden.",
  backToArticle: "Zurück zum Artikel",
};

const SETS: Record<string, Strings> = {
  en,
  fr,
  es,
  ar,
  de,
  pt,
  pt_BR,
  it,
  nl,
  ru,
  ja,
  zh_CN,
  zh_TW,
  ko,
  zh: zh_CN,
};

/** The locales with a set of their own (Chatwoot's codes: `pt_BR`, `zh_CN`). */
export const HELP_CENTER_LOCALES = Object.keys(SETS).filter((k) => k !== "zh");

export function stringsFor(locale: string): Strings {
  const [base = "en", region] = locale.split(/[-_]/);
  const code = region ? `${base.toLowerCase()}_${region.toUpperCase()}` : base.toLowerCase();
  return SETS[code] ?? SETS[base.toLowerCase()] ?? en;
}

/** Right-to-left scripts, for the page's `dir`. */
export const isRtl = (locale: string) => /^(ar|he|fa|ur)([-_]|$)/i.test(locale);
