import type { Attachment } from "../api/types";
import { formatSize } from "../lib/format";
import { safeUrl } from "../lib/linkify";
import { Icon } from "./Icon";

/** An image as a preview linking to the file; any other file as a named download link. */
export function AttachmentView({ attachment }: { attachment: Attachment }) {
  const href = safeUrl(attachment.data_url);
  const name =
    attachment.fallback_title ??
    (attachment.extension ? `${attachment.file_type}.${attachment.extension}` : "file");
  if (attachment.file_type === "image" && href) {
    return (
      <a class="pw-image" href={href} target="_blank" rel="noopener noreferrer">
        <img src={safeUrl(attachment.thumb_url) ?? href} alt={name} loading="lazy" />
      </a>
    );
  }
  return (
    <a class="pw-file" href={href} target="_blank" rel="noopener noreferrer" download={name}>
      <Icon name="file" />
      <span>{name}</span>
      <small>{formatSize(attachment.file_size)}</small>
    </a>
  );
}
