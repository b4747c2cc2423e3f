import type { LauncherLabels } from "./launcher";

type Labels = LauncherLabels & { title: string; dismiss: string };

// The loader speaks the app's languages for the few words it shows before the app loads:
// open | close | unread | iframe title | dismiss (the reply preview).
const LABELS: Record<string, string> = {
  en: "Open chat|Close chat|unread|Chat|Dismiss",
  fr: "Ouvrir le chat|Fermer le chat|non lus|Chat|Ignorer",
  es: "Abrir el chat|Cerrar el chat|sin leer|Chat|Descartar",
  ar: "افتح المحادثة|أغلق المحادثة|غير مقروءة|المحادثة|تجاهل",
};

export function labelsFor(locale: string): Labels {
  const [open, close, unread, title, dismiss] = (
    LABELS[locale.slice(0, 2).toLowerCase()] ?? (LABELS.en as string)
  ).split("|") as [string, string, string, string, string];
  return { open, close, unread, title, dismiss };
}
