import type { AttachmentFileType } from "../../db/schema";

/** Chatwoot's integer message types. */
export const MESSAGE_TYPE_CODES = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;

/** The names by code, as webhook payloads spell message_type. */
export const MESSAGE_TYPE_NAMES = ["incoming", "outgoing", "activity", "template"] as const;

export function fileTypeOf(contentType: string): AttachmentFileType {
  if (contentType.startsWith("image/")) {
    return "image";
  }
  if (contentType.startsWith("audio/")) {
    return "audio";
  }
  if (contentType.startsWith("video/")) {
    return "video";
  }
  return "file";
}
