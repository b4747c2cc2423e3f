/**
 * Revoked access ends open sockets. A socket is authenticated once, when it opens; after that
 * nothing on it is checked against D1 but a message's own write. So whatever takes access away
 * (a token reset, a membership or role change, a suspended account, a deleted inbox or bot)
 * tells the account's AccountFeed, which is also the account's socket directory: it closes its
 * own sockets of whoever lost access and tells each room that holds their sockets to close them.
 *
 * The directory knows which rooms hold whose sockets because the Worker tracks every agent
 * socket there before opening it: `track` hands out a ticket (one increasing sequence per
 * account, shared with revocations), the Worker reads the caller's access from D1 again, and the
 * socket carries its ticket into the room. A revocation takes the next number and leaves a mark
 * (holder → that number) in every room and feed it reached; a socket arriving with an older
 * ticket was authenticated before the revocation and is closed as soon as it is accepted. So a
 * socket open, or opening, when access is taken away is closed, with no per-frame check.
 */

import type { SocketIdentity } from "./protocol";

/** Whose access: a user or an agent bot (a socket's `kind` and `id`). */
export type Holder = { kind: "user" | "agent_bot"; id: number };

/** What was taken away: from these holders (null: everyone), in one inbox or the whole account. */
export type Revocation = { holders: Holder[] | null; inboxId: number | null };

/** The close a socket whose access was revoked gets; reconnecting learns what still holds. */
export const REVOKED_CLOSE = { code: 4403, reason: "access revoked" } as const;

/** The hibernation tag naming a socket's holder, so a room finds their sockets at once. */
export const holderTag = (h: Holder) => `${h.kind}:${h.id}`;

/** The Durable Object's mark of the last revocation that reached it for a holder (or `*`). */
const markKey = (h: Holder | null) => `revoked:${h ? holderTag(h) : "*"}`;

type Kv = DurableObjectStorage["kv"];

/** Leaves the revocation's mark: sockets ticketed before `at` are refused from now on. */
export function markRevoked(kv: Kv, holders: Holder[] | null, at: number): void {
  for (const h of holders ?? [null]) {
    kv.put(markKey(h), at);
  }
}

/** Whether a socket with this ticket was authenticated before a revocation reached here. */
export function revokedSince(kv: Kv, holder: Holder, ticket: number | undefined): boolean {
  if (ticket === undefined) {
    return false;
  }
  const at = Math.max(kv.get<number>(markKey(holder)) ?? 0, kv.get<number>(markKey(null)) ?? 0);
  return at > ticket;
}

/** Closes sockets whose access is gone; sends to them fail from here on (they are closing). */
export function closeRevoked(sockets: WebSocket[]): number {
  let closed = 0;
  for (const ws of sockets) {
    try {
      ws.close(REVOKED_CLOSE.code, REVOKED_CLOSE.reason);
      closed += 1;
    } catch {
      // already closing
    }
  }
  return closed;
}

/** The room's side, as the directory calls it. */
export type RevocableRoom = {
  revokeSockets(holders: Holder[] | null, at: number): Promise<number>;
};

/** The directory's side, as a room calls it when a holder's last socket there has closed. */
export type SocketDirectoryStub = {
  untrack(holder: Holder, room: string, ticket: number): Promise<void>;
};

/**
 * The account's socket directory, in its feed's SQLite storage: which rooms hold sockets of
 * which holders, with the ticket of the last socket tracked there (an untrack that raced a
 * newer socket then leaves the row). A row whose sockets went without an untrack (the room was
 * reset) only costs one room call at the next revocation, which drops it.
 */
export class SocketDirectory {
  constructor(private readonly storage: DurableObjectStorage) {
    storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS socket_rooms (
        kind TEXT NOT NULL, holder INTEGER NOT NULL, room TEXT NOT NULL,
        inbox INTEGER, ticket INTEGER NOT NULL, PRIMARY KEY (kind, holder, room)
      ) WITHOUT ROWID`,
    );
  }

  /** The next number of the account's sequence (tickets and revocations alike). */
  next(): number {
    const n = (this.storage.kv.get<number>("ticket") ?? 0) + 1;
    this.storage.kv.put("ticket", n);
    return n;
  }

  track(holder: Holder, room: string | null, inboxId: number | null): number {
    const ticket = this.next();
    if (room !== null) {
      this.storage.sql.exec(
        `INSERT INTO socket_rooms (kind, holder, room, inbox, ticket) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (kind, holder, room) DO UPDATE SET inbox = excluded.inbox, ticket = excluded.ticket`,
        holder.kind,
        holder.id,
        room,
        inboxId,
        ticket,
      );
    }
    return ticket;
  }

  untrack(holder: Holder, room: string, ticket: number): void {
    this.storage.sql.exec(
      "DELETE FROM socket_rooms WHERE kind = ? AND holder = ? AND room = ? AND ticket <= ?",
      holder.kind,
      holder.id,
      room,
      ticket,
    );
  }

  /** The rooms listed for a holder (presence asks them whether the holder's socket is there). */
  roomsOf(holder: Holder): string[] {
    return this.storage.sql
      .exec<{ room: string }>(
        "SELECT room FROM socket_rooms WHERE kind = ? AND holder = ?",
        holder.kind,
        holder.id,
      )
      .toArray()
      .map((r) => r.room);
  }

  /** The users with a room listed (a revocation for everyone may end their last sockets). */
  users(): number[] {
    return this.storage.sql
      .exec<{ holder: number }>("SELECT DISTINCT holder FROM socket_rooms WHERE kind = 'user'")
      .toArray()
      .map((r) => r.holder);
  }

  /** The rooms a revocation reaches, forgotten here (their sockets are about to close). */
  take(r: Revocation): string[] {
    const rooms = new Set<string>();
    for (const h of r.holders ?? [null]) {
      const where = [
        h ? "kind = ? AND holder = ?" : "1 = 1",
        r.inboxId === null ? "1 = 1" : "inbox = ?",
      ].join(" AND ");
      const args = [...(h ? [h.kind, h.id] : []), ...(r.inboxId === null ? [] : [r.inboxId])];
      for (const row of this.storage.sql.exec<{ room: string }>(
        `DELETE FROM socket_rooms WHERE ${where} RETURNING room`,
        ...args,
      )) {
        rooms.add(row.room);
      }
    }
    return [...rooms];
  }
}

/** The holder of an agent or bot socket; visitors' sockets have none (their access is the path). */
export function holderOf(who: SocketIdentity): Holder | null {
  return who.kind === "contact" ? null : { kind: who.kind, id: who.id };
}

const ticketKey = (h: Holder) => `ticket:${holderTag(h)}`;

/** A room accepting a holder's socket keeps the newest ticket it has seen for them. */
export function noteTicket(kv: Kv, holder: Holder, ticket: number | undefined): void {
  if (ticket !== undefined && ticket > (kv.get<number>(ticketKey(holder)) ?? 0)) {
    kv.put(ticketKey(holder), ticket);
  }
}

/**
 * A room's socket closed: when it was its holder's last one there, the directory forgets the
 * room for them, unless a socket tracked after every one this room has seen is on its way.
 */
export function releaseHolder(
  ctx: DurableObjectState,
  feeds: DurableObjectNamespace,
  ws: WebSocket,
): Promise<void> | undefined {
  const me = ws.deserializeAttachment() as SocketIdentity | null;
  const holder = me ? holderOf(me) : null;
  if (!me?.directory || !holder) {
    return undefined;
  }
  const others = ctx
    .getWebSockets(holderTag(holder))
    .some((s) => s !== ws && s.readyState === WebSocket.OPEN);
  if (others) {
    return undefined;
  }
  const ticket = ctx.storage.kv.get<number>(ticketKey(holder)) ?? me.ticket ?? 0;
  const directory = feeds.get(feeds.idFromString(me.directory)) as unknown as SocketDirectoryStub;
  return directory.untrack(holder, ctx.id.toString(), ticket);
}

/** A revocation reaching a room: marks it, closes the holders' sockets (null: every socket). */
export function revokeInRoom(
  ctx: DurableObjectState,
  holders: Holder[] | null,
  at: number,
): number {
  markRevoked(ctx.storage.kv, holders, at);
  const sockets = holders
    ? holders.flatMap((h) => ctx.getWebSockets(holderTag(h)))
    : ctx.getWebSockets();
  return closeRevoked(sockets);
}
