import type { MessageRow } from "../../db/schema";
import type { Bindings } from "../../env";
import type { Typer } from "../../events/types";
import type { RoomEvent } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import type { RoomFrame } from "../live/frames";
import type { NewMessage } from "../messages/queries";
import type { UpdateRecorder } from "./message-update";
import type { TailEntry } from "./tail";
import type { AppendRequest, AppendResult, MessageView } from "./types";

/**
 * The room's RPC surface as callers see it (room.ts implements it). Written out rather than
 * picked from the class, so what reaches rooms through their stubs does not import the room:
 * the room imports its socket actions, which reach other rooms through the message service.
 * (Workers' RPC typing would also turn free-form JSON fields into `never`.)
 */
export type RoomStub = {
  appendMessage(req: AppendRequest, answerAt?: AnswerAt): Promise<AppendResult>;
  unreplicated(): Promise<TailEntry[]>;
  updateMessage(
    conversationId: number,
    messageId: number,
    values: Partial<NewMessage>,
    view: MessageView,
    record: UpdateRecorder | null,
  ): Promise<{ message: MessageRow; eventIds: number[] } | undefined>;
  publish(event: RoomEvent<RoomFrame>): Promise<void>;
  setTyping(
    typer: Typer,
    on: boolean,
    isPrivate: boolean,
    conversation: RoomConversation,
  ): Promise<void>;
  fetch(request: Request): Promise<Response>;
  closeVisitorSessions(sources: string[]): Promise<number>;
};

/**
 * When an append is answered: once D1 has the message ("d1"), or at the room's commit
 * ("commit": the caller's reads of the conversation merge the room's tail, messages/tail.ts).
 */
export type AnswerAt = "d1" | "commit";

/** The one place room names are made: one room per conversation, keyed by account and id. */
export function roomFor(env: Bindings, accountId: number, conversationId: number): RoomStub {
  return env.ROOMS.get(roomIdFor(env, accountId, conversationId)) as unknown as RoomStub;
}

export const roomIdFor = (env: Bindings, accountId: number, conversationId: number) =>
  env.ROOMS.idFromName(`${accountId}:${conversationId}`);
