// The realtime bench's bare durable room: the least a Durable Object must do for a message —
// take the socket frame, commit it to the room's SQLite, send it to every socket, ack — and
// nothing else (no checks, no ids, no replication, no events). The frames that arrive together
// commit and leave together, as Parley's write queue gathers them, so both pay for one commit
// and one send per socket a turn. What it costs locally is workerd's own cost: a floor for what
// a room can reach on this machine, for one message at a time (the bench times its sequential
// sends). Its sockets decline permessage-deflate on both hops, as Parley's do
// (worker/realtime/upgrade.ts): the runtime would otherwise deflate each frame once
// per socket.
import { DurableObject } from "cloudflare:workers";

/** A value naming no extension: the runtime refuses it and the client gets no header. */
const upgraded = (webSocket) =>
  new Response(null, { status: 101, webSocket, headers: { "sec-websocket-extensions": "none" } });

export class Room extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.seq = 0;
    this.pending = [];
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY, content TEXT)",
    );
  }

  async fetch() {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return upgraded(pair[0]);
  }

  async webSocketMessage(ws, raw) {
    this.pending.push({ ws, message: JSON.parse(String(raw)) });
    if (this.pending.length === 1) {
      setTimeout(() => this.flush(), 0);
    }
  }

  flush() {
    const group = this.pending;
    this.pending = [];
    const frames = group.map(({ message }) => {
      message.seq = ++this.seq;
      this.ctx.storage.sql.exec(
        "INSERT INTO messages (seq, content) VALUES (?, ?)",
        message.seq,
        String(message.content),
      );
      const data = { content: message.content, seq: message.seq };
      return JSON.stringify({ event: "message.created", data });
    });
    const batch = frames.length === 1 ? frames[0] : `[${frames.join(",")}]`;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(batch);
      } catch {
        // closed meanwhile
      }
    }
    for (const { ws, message } of group) {
      const { echo_id, seq } = message;
      ws.send(JSON.stringify({ event: "ack", data: { echo_id, id: seq, seq } }));
    }
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/") {
      return new Response("ok");
    }
    if (pathname === "/openapi.json") {
      // What the bench's readiness check and direct-port.mjs look for.
      return Response.json({ openapi: "3.1.0" });
    }
    const res = await env.ROOM.get(env.ROOM.idFromName("one")).fetch(request);
    return res.webSocket ? upgraded(res.webSocket) : res;
  },
};
