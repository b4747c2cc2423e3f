import { createDb } from "../../db/client";
import type { LiveHandler } from "../../events/registry";
import { roomFor } from "../conversation-room/stub";
import { presentUserRef } from "../users/presenter";
import { findUser } from "../users/queries";
import { liveFramesOf } from "./presenter";
import { feedFor } from "./stubs";

/**
 * After a commit: the conversation's room and the account's feed get the event's frames
 * (registered in worker/wiring.ts).
 */
export const liveHandler: LiveHandler = async (committed, { env }) => {
  const { event, conversation } = committed;
  if (!conversation) {
    return;
  }
  const user =
    event.name === "assignee.changed" && conversation.assigneeId !== null
      ? await findUser(createDb(env.DB), conversation.assigneeId)
      : undefined;
  const assignee = user ? presentUserRef(user) : null;
  const frames = liveFramesOf(committed, { assignee });
  await Promise.all([
    frames.room && roomFor(env, event.accountId, conversation.id).publish(frames.room),
    frames.feed &&
      feedFor(env, event.accountId).publish({ frame: frames.feed, inboxId: conversation.inboxId }),
  ]);
};
