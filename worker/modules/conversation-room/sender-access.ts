import type { ConversationRow } from "../../db/schema";
import type { SocketIdentity } from "../../realtime/protocol";
import type { Holder } from "../../realtime/revocation";
import type { RoomConversation } from "../../realtime/room-typing";

/**
 * A socket sender's access as the room knows it when their message commits, without reading D1.
 * Every change of access made through the API reaches the room as a revocation (closing the
 * holder's sockets) before its answer leaves, and every conversation change drops the room's
 * row. A message is refused when a revocation of its sender (or of everyone) reached the room
 * after its frame arrived, or when the row the room holds is no longer in the socket's inbox
 * (or, for a visitor, no longer theirs). What a change made straight in D1 behind the API can
 * miss is bounded by the callers' cache (a minute: socket-actions/caller.ts).
 */
export class SenderAccess {
  /** Revocations that reached the room, counted; per holder ("*": everyone) the last one's. */
  private count = 0;
  private readonly at = new Map<string, number>();

  revoked(holders: Holder[] | null): void {
    this.count += 1;
    for (const h of holders ?? [null]) {
      this.at.set(h ? `${h.kind}:${h.id}` : "*", this.count);
    }
  }

  /** Taken as the frame arrives; asked when its message commits. */
  check(
    who: SocketIdentity,
    ref: RoomConversation,
    row: () => ConversationRow | undefined,
  ): () => boolean {
    const since = this.count;
    const tag = who.kind === "contact" ? null : `${who.kind}:${who.id}`;
    return () => {
      const revoked = Math.max(this.at.get("*") ?? 0, tag ? (this.at.get(tag) ?? 0) : 0);
      const now = row();
      return (
        revoked <= since &&
        (!now ||
          (now.inboxId === ref.inboxId &&
            now.accountId === ref.accountId &&
            (who.kind !== "contact" || now.contactId === who.id)))
      );
    };
  }
}
