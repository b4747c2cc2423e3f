import { env } from "cloudflare:test";
import { type ApiResult, api } from "./http";

/** Until D1 holds the message (the room's log reaches it behind the answer); up to 40 s. */
export async function untilInD1(messageId: number): Promise<void> {
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
    const row = await env.DB.prepare("SELECT 1 AS x FROM messages WHERE id = ?")
      .bind(messageId)
      .first();
    if (row) {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`D1 never held message ${messageId}`);
}

/**
 * An agent's post through the account API, returned once D1 holds the message with its outbox
 * row: the post itself is answered at the room's commit, before D1 (docs/realtime.md, "Read your
 * writes"), and tests of what follows D1 (outbox, queue, notifications) start from there.
 */
export async function postStored<T = any>(
  path: string,
  opts: Parameters<typeof api>[1],
): Promise<ApiResult<T>> {
  const res = await api<T>(path, opts);
  const id = (res.body as { id?: unknown } | null)?.id;
  if (res.status === 200 && typeof id === "number") {
    await untilInD1(id);
  }
  return res;
}
