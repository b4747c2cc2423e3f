import { z } from "@hono/zod-openapi";

/** An absolute http(s) URL with a host: what every URL field of the API accepts. */
export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
};

export const HTTP_URL_MESSAGE = "must be an absolute http(s) URL";

/** A URL field: trimmed, at most 2 KiB, absolute http(s). */
export const httpUrl = () => z.string().trim().max(2048).refine(isHttpUrl, HTTP_URL_MESSAGE);
