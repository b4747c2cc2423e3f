import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Conversation, Message } from "../../dashboard/src/lib/types";
import { row, startList, stopList } from "../../dashboard/src/state/list";
import { signOut, token } from "../../dashboard/src/state/session";
import {
  closeThread,
  conversation,
  messages,
  openThread,
  prefetch,
} from "../../dashboard/src/state/thread";
import { conversationOf, messageOf } from "./fixtures";

const ACCOUNT = 1;
const ID = 5;

const message = (seq: number): Message =>
  messageOf(100 + seq, {
    seq,
    content: `message ${seq}`,
    conversation_id: ID,
    created_at: 1_700_000_000 + seq,
  });

const record: Conversation = conversationOf(ID, {
  updated_at: 1_700_000_020,
  last_activity_at: 1_700_000_020,
  last_non_activity_message: message(20),
});

/** Every request and socket the app makes, answered as the API would. */
const calls: string[] = [];
const sockets: string[] = [];

function answer(url: string) {
  const path = url.replace(`/api/v1/accounts/${ACCOUNT}`, "");
  if (path.startsWith("/conversations/meta")) {
    return {
      data: { meta: { mine_count: 0, unassigned_count: 1, assigned_count: 0, all_count: 1 } },
    };
  }
  if (path.startsWith("/conversations?")) {
    return {
      data: {
        meta: { mine_count: 0, unassigned_count: 1, assigned_count: 0, all_count: 1 },
        payload: [record],
      },
    };
  }
  const messagesOf = path.match(/^\/conversations\/(\d+)\/messages/);
  if (messagesOf) {
    const id = Number(messagesOf[1]);
    const page = Array.from({ length: 20 }, (_, i) => ({ ...message(i + 1), conversation_id: id }));
    return { payload: page, meta: {} };
  }
  const one = path.match(/^\/conversations\/(\d+)$/);
  if (one) {
    return { ...record, id: Number(one[1]) };
  }
  return [];
}

class FakeSocket {
  static readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(url: string) {
    sockets.push(url);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}

beforeAll(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify(answer(url)), {
        headers: { "content-type": "application/json" },
      });
    }),
  );
  vi.stubGlobal("WebSocket", FakeSocket);
  token.value = "t0ken";
});

afterAll(() => {
  closeThread();
  stopList();
  vi.unstubAllGlobals();
});

const messageReads = () => calls.filter((u) => u.includes(`/conversations/${ID}/messages`));
const recordReads = () => calls.filter((u) => u.endsWith(`/conversations/${ID}`));

describe("opening a conversation", () => {
  it("reads only its latest messages when the list holds its row, then resumes after their seq", async () => {
    startList(ACCOUNT, 7);
    await vi.waitFor(() => expect(row(ID)).toBeDefined());
    calls.length = 0;
    const opening = openThread(ACCOUNT, ID);
    // The header shows from the list's row at once, before any answer.
    expect(conversation.value?.id).toBe(ID);
    await opening;
    expect(messages.value.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // The messages were read before anything else; the record only afterwards, to catch up.
    expect(calls[0]).toContain(`/conversations/${ID}/messages`);
    expect(messageReads()).toHaveLength(1);
    expect(sockets.at(-1)).toContain(`/conversations/${ID}/live?batch=1&after=20`);
  });

  it("opened again, shows what it was left with at once and reads no messages", async () => {
    closeThread();
    expect(messages.value).toEqual([]);
    calls.length = 0;
    const opening = openThread(ACCOUNT, ID);
    expect(messages.value).toHaveLength(20);
    await opening;
    expect(messageReads()).toHaveLength(0);
    expect(sockets.at(-1)).toContain("after=20");
    await vi.waitFor(() => expect(recordReads()).toHaveLength(1));
  });

  it("keeps nothing across a sign-out", async () => {
    closeThread();
    signOut();
    token.value = "another";
    calls.length = 0;
    const opening = openThread(ACCOUNT, ID);
    expect(messages.value).toEqual([]);
    await opening;
    expect(messageReads()).toHaveLength(1);
  });

  it("takes the page fetched when the pointer went down, instead of asking again", async () => {
    closeThread();
    calls.length = 0;
    prefetch(ACCOUNT, 6);
    prefetch(ACCOUNT, 6);
    const reads = () => calls.filter((u) => u.includes("/conversations/6/messages"));
    expect(reads()).toHaveLength(1);
    await openThread(ACCOUNT, 6);
    expect(reads()).toHaveLength(1);
    expect(conversation.value?.id).toBe(6);
    expect(messages.value).toHaveLength(20);
    expect(messages.value.every((m) => m.conversation_id === 6)).toBe(true);
    expect(sockets.at(-1)).toContain("/conversations/6/live?batch=1&after=20");
  });
});
