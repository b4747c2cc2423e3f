const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, withDate: boolean) {
  const key = `${locale}|${withDate}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      hour: "numeric",
      minute: "2-digit",
      ...(withDate ? { month: "short", day: "numeric" } : {}),
    });
    formats.set(key, f);
  }
  return f;
}

/** "14:05" today, "3 Mar, 14:05" on other days, in the chat's locale. */
export function formatTime(unixSeconds: number, locale: string, now = new Date()): string {
  const d = new Date(unixSeconds * 1000);
  return formatter(locale, d.toDateString() !== now.toDateString()).format(d);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  return bytes < 1024 * 1024
    ? `${Math.round(bytes / 1024)} KB`
    : `${(bytes / 1048576).toFixed(1)} MB`;
}
