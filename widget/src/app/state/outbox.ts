import { ApiError, NetworkError } from "../api/client";
import { api } from "../api/endpoints";
import { echoId } from "../lib/ids";
import { backoff } from "../realtime/socket";
import { type Pending, pending, setPending, updatePending } from "./conversation";
import { receive } from "./receive";
import { ensureConversation, saveSession, session, setConversationId } from "./session";
import { sendText } from "./transport";
import { online } from "./ui";

const now = () => Math.floor(Date.now() / 1000);

function enqueue(item: Omit<Pending, "echo_id" | "created_at" | "state">) {
  setPending([
    ...pending.value,
    { ...item, echo_id: echoId(), created_at: now(), state: "queued" },
  ]);
  void flush();
}

export const queueText = (content: string) => {
  const text = content.trim();
  if (text) {
    enqueue({ content: text });
  }
};

export const queueFile = (file: File) => enqueue({ content: file.name, file });

export function retry(echo: string) {
  updatePending(echo, { state: "queued" });
  void flush();
}

let running = false;
let again = false;
let failures = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Sends the queue in order, one message at a time. Exactly once: a send that got no answer
 * is marked uncertain, and before it is sent again the latest messages are checked for its
 * echo_id (as are live frames, which settle it on their own).
 */
export async function flush(): Promise<void> {
  if (running) {
    again = true;
    return;
  }
  running = true;
  clearTimeout(timer);
  try {
    do {
      again = false;
      await drain();
    } while (again);
  } finally {
    running = false;
  }
}

function later(ms: number) {
  clearTimeout(timer);
  timer = setTimeout(() => void flush(), ms);
}

async function drain() {
  for (let recoveries = 0; ; ) {
    const item = pending.value.find((p) => p.state !== "failed");
    if (!item || !online.value) {
      return;
    }
    try {
      await sendOne(item);
      failures = 0;
    } catch (err) {
      if (err instanceof NetworkError) {
        updatePending(item.echo_id, { state: "queued", uncertain: true });
        later(backoff(++failures));
        return;
      }
      if (err instanceof ApiError && err.status === 429) {
        updatePending(item.echo_id, { state: "limited" });
        later(Math.max(1, err.retryAfter) * 1000);
        return;
      }
      if (err instanceof ApiError && err.status === 404 && recoveries++ < 2) {
        // The conversation (or the contact) is gone: start afresh on the next pass.
        if (session.value?.conversationId) {
          setConversationId(null);
        } else {
          saveSession(null);
        }
        continue;
      }
      updatePending(item.echo_id, { state: "failed", uncertain: false });
    }
  }
}

async function sendOne(item: Pending) {
  const { sourceId, conversationId } = await ensureConversation();
  if (item.uncertain) {
    receive(await api.messages(sourceId, conversationId));
    if (!pending.value.some((p) => p.echo_id === item.echo_id)) {
      return;
    }
  }
  updatePending(item.echo_id, { state: "sending" });
  // Text over the socket or HTTP (transport.ts decides; over the socket, the message.created
  // frame settles the item); files over HTTP only.
  const message = item.file
    ? await api.sendFile(sourceId, conversationId, item.file, item.echo_id)
    : await sendText(sourceId, conversationId, item.content, item.echo_id);
  if (message) {
    receive([message]);
  }
}
