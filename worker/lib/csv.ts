/**
 * The one CSV cell writer every CSV export uses (CSV injection, OWASP): a spreadsheet must
 * never run a cell as a formula. A text cell is neutralised when it starts with = + - @ tab or
 * CR, or holds one after a separator-like character (, ; tab or a line break, with spaces or
 * quotes between): a spreadsheet that splits on another separator than ours (Excel with `;` in
 * many locales) would start a cell there, and our quotes would not be at that cell's start.
 * Neutralised means an apostrophe before the cell and before each such inner trigger, and the
 * cell quoted. Numbers are written as numbers, so negative values are never touched.
 */
const STARTS = /^[=+\-@\t\r]/;
const INNER = /([,;\t\r\n][ "]*)(?=[=+\-@\t\r])/g;

export function csvCell(value: string | number | null): string {
  if (value === null) {
    return "";
  }
  if (typeof value === "number") {
    return String(value);
  }
  const inner = value.replace(INNER, "$1'");
  const neutralised = inner !== value || STARTS.test(value);
  const text = neutralised ? `'${inner}` : value;
  // RFC 4180: quote a field holding a separator, quote or line break; double the quotes inside.
  return neutralised || /[",;\r\n\t]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (no line end) of cells. */
export const csvLine = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(",");
