import type { SocketIdentity } from "./protocol";

type Role = SocketIdentity["role"];
const ROLES: readonly Role[] = ["agent", "contact"];

/** A batch frame stays well under the runtime's 1 MiB message limit. */
const MAX_BATCH_CHARS = 256 * 1024;

/**
 * Hibernation tags of a socket: its role (who may see what), and its role with how it takes
 * durable frames: one frame each, or batched (clients that opted in at connect).
 */
export const socketTags = (role: Role, batch: boolean) => [
  role,
  `${role}:${batch ? "batch" : "single"}`,
];

export function sendAll(sockets: WebSocket[], data: string): void {
  for (const ws of sockets) {
    try {
      ws.send(data);
    } catch {
      // A dead socket is dropped; the runtime reports its close separately.
    }
  }
}

/**
 * Durable frames to the room's audiences. Single-frame sockets get each frame at once.
 * Batching sockets get every frame of one turn (a group commit of many messages) as one
 * WebSocket message, a JSON array in seq order, at the end of the turn: one send per socket
 * instead of one per frame. Anything else sent to a socket calls `flush` first, so nothing
 * overtakes a frame that is owed.
 */
export class Fanout {
  private readonly pending: Record<Role, string[]> = { agent: [], contact: [] };
  private scheduled = false;

  constructor(private readonly ctx: DurableObjectState) {}

  broadcast(agentFrame: string, contactFrame: string | null): void {
    this.queue("agent", agentFrame);
    if (contactFrame !== null) {
      this.queue("contact", contactFrame);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    for (const role of ROLES) {
      const frames = this.pending[role];
      if (frames.length === 0) {
        continue;
      }
      this.pending[role] = [];
      const sockets = this.ctx.getWebSockets(`${role}:batch`);
      for (const batch of sockets.length > 0 ? chunks(frames) : []) {
        sendAll(sockets, batch);
      }
    }
  }

  private queue(role: Role, data: string): void {
    sendAll(this.ctx.getWebSockets(`${role}:single`), data);
    this.pending[role].push(data);
  }
}

/** One frame alone as itself; several as arrays of at most MAX_BATCH_CHARS. */
function chunks(frames: string[]): string[] {
  if (frames.length === 1) {
    return frames;
  }
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const f of frames) {
    if (current.length > 0 && size + f.length > MAX_BATCH_CHARS) {
      out.push(`[${current.join(",")}]`);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.length + 1;
  }
  out.push(current.length === 1 ? (current[0] as string) : `[${current.join(",")}]`);
  return out;
}
