import { RichText } from "../../../widget/src/app/components/RichText";
import { clock, plainMentions, safeUrl } from "../lib/format";
import type { Attachment, Message } from "../lib/types";

function AttachmentView({ a }: { a: Attachment }) {
  const href = safeUrl(a.data_url);
  const name = a.fallback_title || `${a.file_type} attachment`;
  if (!href) {
    return <span class="file">{name}</span>;
  }
  if (a.file_type === "image") {
    return (
      <a class="file image" href={href} target="_blank" rel="noopener noreferrer">
        <img src={safeUrl(a.thumb_url) ?? href} alt={name} loading="lazy" />
      </a>
    );
  }
  return (
    <a class="file" href={href} target="_blank" rel="noopener noreferrer" download>
      📎 {name}
    </a>
  );
}

/**
 * One message. Its text goes through the widget's RichText, the one path every message takes:
 * text nodes and a few elements built here; no HTML of anyone's is ever parsed.
 */
export function MessageView({ m, seen }: { m: Message; seen: boolean }) {
  if (m.message_type === 2) {
    return (
      <li class="activity" data-id={m.id}>
        <span>{m.content}</span> <time>{clock(m.created_at)}</time>
      </li>
    );
  }
  const kind = m.private ? "note" : m.message_type === 0 ? "in" : "out";
  return (
    <li class={`msg ${kind}`} data-id={m.id}>
      <div class="bubble">
        {m.private && <span class="tag">Private note</span>}
        {m.content && (
          <div class="text">
            {/* Agents' text: a mention reads as its @Name (the markdown subset has no mentions). */}
            <RichText
              text={kind === "in" ? m.content : plainMentions(m.content)}
              markdown={kind !== "in"}
            />
          </div>
        )}
        {m.attachments?.map((a) => (
          <AttachmentView a={a} />
        ))}
      </div>
      <div class="meta">
        {m.sender?.name && <span>{m.sender.name} · </span>}
        <time>{clock(m.created_at)}</time>
        {kind === "out" && seen && <span> · Seen</span>}
        {m.status === "failed" && <span class="error"> · Failed</span>}
      </div>
    </li>
  );
}
