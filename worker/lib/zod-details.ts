import type { z } from "zod";

/** zod issues to the error body's `details` (HTTP bodies and socket frames alike). */
export function zodDetails(error: z.ZodError) {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "body",
    message: issue.message,
  }));
}
