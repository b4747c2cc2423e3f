// Chatwoot's content_attributes of interactive messages, read defensively: they are stored as an
// agent or bot sent them, so every field may be missing, of another type, or hostile. Text
// stays text (rendered as text nodes), URLs are kept only when http(s).
import { safeUrl } from "../lib/linkify";

/** At most this many items of a list are shown (a prompt is not a catalogue). */
const MAX_ITEMS = 20;

export type Attrs = Record<string, unknown>;

export const str = (v: unknown) =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : "";

/** The attribute `key` as a list of objects (anything else in it is skipped). */
export const list = (attrs: unknown, key = "items"): Attrs[] => {
  const v = (attrs as Attrs | null)?.[key];
  return Array.isArray(v)
    ? v.filter((x): x is Attrs => typeof x === "object" && x !== null).slice(0, MAX_ITEMS)
    : [];
};

export const url = (v: unknown) => safeUrl(str(v));

/** What the visitor answered, if they did: content_attributes.submitted_values. */
export const submitted = (attrs: unknown) => (attrs as Attrs | null)?.submitted_values;

/** A form's or input_email's answers by field name. */
export function answers(attrs: unknown): Record<string, string> | null {
  const values = submitted(attrs);
  if (!Array.isArray(values)) {
    // Chatwoot's own widget keeps an answered input_email as submitted_email.
    const email = str((attrs as Attrs | null)?.submitted_email);
    return email ? { email } : null;
  }
  const out: Record<string, string> = {};
  for (const v of list({ items: values })) {
    out[str(v.name) || str(v.title)] = str(v.value);
  }
  return out;
}

/** An answered input_csat: its rating (1–5) and comment. */
export function csatAnswer(attrs: unknown): { rating: number; feedback: string } | null {
  const r = (submitted(attrs) as Attrs | undefined)?.csat_survey_response as Attrs | undefined;
  const rating = Number(r?.rating);
  return rating >= 1 && rating <= 5 ? { rating, feedback: str(r?.feedback_message) } : null;
}
