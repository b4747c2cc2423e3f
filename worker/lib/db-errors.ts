/**
 * D1 reports unique-index clashes only through the message, sometimes on a wrapped cause.
 * Services check first for the usual case; this catches the race the unique index settles.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed/i.test(e.message)) {
      return true;
    }
  }
  return false;
}
