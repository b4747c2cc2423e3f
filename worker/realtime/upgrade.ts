// The answer to a WebSocket upgrade, for the Worker and its Durable Objects (not the clients:
// protocol.ts is shared with the widget and the app, whose Response has no webSocket).

/**
 * Every Parley socket declines permessage-deflate. A room sends each frame to all its sockets and
 * the runtime deflates per socket: a busy room with 116 sockets spent half its CPU compressing
 * the same frames again and again (the realtime bench's sustained step: 1.2 ms of workerd CPU a
 * message with compression, 0.6 without), and every socket kept a deflate context of its own in
 * the room's memory. Frames are small JSON; Chatwoot's ActionCable does not compress them either.
 * The empty value the runtime documents as "no compression" reaches workerd as no header, and
 * it negotiates compression itself; a value that names no extension it knows is refused, and
 * the client gets no Sec-WebSocket-Extensions header (test/e2e/socket-compression.test.mts).
 */
const NO_EXTENSIONS = { "sec-websocket-extensions": "none" } as const;

/** The 101 that hands a client its socket (with `headers`), compression declined. */
export function upgraded(webSocket: WebSocket, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 101, webSocket, headers: { ...headers, ...NO_EXTENSIONS } });
}
