import { inboxName } from "../state/account";
import { covers } from "../state/read-mark";
import { conversationPath, go } from "../state/route";
import {
  contactOnline,
  contactSeen,
  conversation,
  discard,
  messages,
  pending,
  retry,
  threadError,
  threadState,
  typers,
  viewers,
} from "../state/thread";
import { Actions } from "./Actions";
import { Composer } from "./Composer";
import { DashboardApps } from "./DashboardApps";
import { MessageView } from "./Message";
import { useAnnouncement, useThreadWindow } from "./useThreadWindow";

function Pendings() {
  return (
    <>
      {pending.value.map((p) => (
        <li class={`msg ${p.private ? "note" : "out"} pending`} key={p.echo_id}>
          <div class="bubble">
            {p.private && <span class="tag">Private note</span>}
            <div class="text">{p.content}</div>
          </div>
          <div class="meta">
            {p.via === "failed" ? (
              <>
                <span class="error">{p.error}</span>{" "}
                <button type="button" class="link" onClick={() => retry(p.echo_id)}>
                  Retry
                </button>{" "}
                <button type="button" class="link" onClick={() => discard(p.echo_id)}>
                  Discard
                </button>
              </>
            ) : (
              "Sending…"
            )}
          </div>
        </li>
      ))}
    </>
  );
}

export function Thread({ accountId }: { accountId: number }) {
  const c = conversation.value;
  const list = messages.value;
  const view = useThreadWindow(list, c?.id ?? 0);
  const said = useAnnouncement(list, c?.id ?? 0);
  if (threadError.value) {
    return (
      <section class="thread-pane">
        <p class="error" role="alert">
          This conversation could not be opened: {threadError.value}
        </p>
      </section>
    );
  }
  if (!c) {
    return <section class="thread-pane" aria-busy="true" />;
  }
  const name = c.meta.sender?.name || `Visitor #${c.meta.sender?.id ?? ""}`;
  const seen = contactSeen.value;
  const others = viewers.value;
  return (
    <section class="thread-pane" aria-label={`Conversation with ${name}`}>
      <header class="thread-head">
        <button
          type="button"
          class="back"
          aria-label="Back to the list"
          onClick={() => go(conversationPath(accountId, null))}
        >
          ←
        </button>
        <div class="who">
          <h2>{name}</h2>
          <p class="muted">
            #{c.id} · {inboxName(c.inbox_id)} · <span class={`status ${c.status}`}>{c.status}</span>
            {c.muted ? " · muted" : ""}
            {contactOnline.value ? " · online" : ""}
          </p>
        </div>
        <button
          type="button"
          class="contact-toggle"
          onClick={() => go(`${conversationPath(accountId, c.id)}?pane=contact`)}
        >
          Contact
        </button>
      </header>
      <Actions c={c} />
      <DashboardApps accountId={accountId} c={c} />
      {(others.length > 0 || threadState.value === "down") && (
        <p class="presence" role="status">
          {threadState.value === "down" ? "Reconnecting… " : ""}
          {others.length > 0 && `Also here: ${others.map((o) => o.name).join(", ")}`}
        </p>
      )}
      <section
        class="messages"
        aria-label="Messages"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
        tabIndex={0}
        ref={view.scroller}
        onScroll={view.onScroll}
      >
        <ol
          class="thread"
          ref={view.list}
          data-loaded={list.length}
          style={{ paddingTop: `${view.padTop}px`, paddingBottom: `${view.padBottom}px` }}
        >
          {list.slice(view.first, view.last).map((m) => (
            <MessageView key={m.id} m={m} seen={covers(seen, m)} />
          ))}
        </ol>
        {pending.value.length > 0 && (
          <ol class="thread" aria-label="Sending">
            <Pendings />
          </ol>
        )}
      </section>
      <p class="sr" aria-live="polite">
        {said}
      </p>
      <p class="typing" aria-live="polite">
        {typers.value.length > 0 &&
          `${typers.value.map((t) => t.name || "Someone").join(", ")} ${typers.value.length > 1 ? "are" : "is"} typing…`}
      </p>
      <Composer disabled={false} />
    </section>
  );
}
