import type { z } from "zod";
import { invalidFields } from "./errors";

/** zod issues to the error body's `details` (HTTP bodies and socket frames alike). */
export function zodDetails(error: z.ZodError) {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "body",
    message: issue.message,
  }));
}

/** The one 422 for input a schema refuses: every problem, as `path: message` joined. */
export function invalidInput(error: z.ZodError) {
  const details = zodDetails(error);
  return invalidFields(details, details.map((d) => `${d.path}: ${d.message}`).join("; "));
}
