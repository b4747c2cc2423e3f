import { useEffect, useRef, useState } from "preact/hooks";
import { acct, request } from "../lib/api";
import { effect } from "../lib/signal";
import type { Conversation } from "../lib/types";
import { profile, token } from "../state/session";
import { messages } from "../state/thread";
import "./DashboardApps.css";

/**
 * The account's dashboard apps (Chatwoot's, docs/agent-tools.md): each a tab beside the
 * conversation showing its frames, which get the conversation's context by postMessage as
 * Chatwoot's dashboard sends it: `{event: "appContext", data: {conversation, contact,
 * currentAgent}}` as a JSON string, when a frame loads, when it asks
 * (`chatwoot-dashboard-app:fetch-info`) and when the agent opens another conversation.
 */
type DashboardApp = { id: number; title: string; content: { type: string; url: string }[] };

const ASK = "chatwoot-dashboard-app:fetch-info";
/**
 * The frame keeps its own origin (a CRM needs its cookies) and may run script, submit forms and
 * open windows; it may not navigate the app or reach it: it is another origin, and a frame on
 * the app's own origin is never shown (the API refuses one too).
 */
const SANDBOX =
  "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads";

/** Read once per account and session: apps change rarely, and a reload shows a change. */
const cache = new Map<string, Promise<DashboardApp[]>>();
function appsOf(accountId: number): Promise<DashboardApp[]> {
  const key = `${token.peek()}:${accountId}`;
  let found = cache.get(key);
  if (!found) {
    found = request<DashboardApp[]>(acct(accountId, "/dashboard_apps")).catch(() => []);
    cache.set(key, found);
  }
  return found;
}

const originOf = (url: string) => {
  try {
    const u = new URL(url);
    return (u.protocol === "https:" || u.protocol === "http:") && u.origin !== location.origin
      ? u.origin
      : null;
  } catch {
    return null;
  }
};

/** What a frame is sent: the conversation as the app has it, with its loaded messages. */
function contextOf(c: Conversation): string {
  const me = profile.peek();
  return JSON.stringify({
    event: "appContext",
    data: {
      conversation: { ...c, messages: messages.peek().filter((m) => m.conversation_id === c.id) },
      contact: c.meta.sender ?? null,
      currentAgent: me ? { id: me.id, name: me.name, email: me.email } : null,
    },
  });
}

export function DashboardApps({ accountId, c }: { accountId: number; c: Conversation }) {
  const [apps, setApps] = useState<DashboardApp[]>([]);
  /** The open tab: 0 the conversation, else an app's id. */
  const [open, setOpen] = useState(0);
  /** Apps opened once keep their frames (and their state) while the thread is shown. */
  const [shown, setShown] = useState<number[]>([]);
  const frames = useRef(new Map<HTMLIFrameElement, string>());
  const current = useRef(c);
  current.current = c;

  useEffect(() => {
    let live = true;
    void appsOf(accountId).then((list) => live && setApps(Array.isArray(list) ? list : []));
    return () => {
      live = false;
    };
  }, [accountId]);

  const send = (frame: HTMLIFrameElement, origin: string) =>
    frame.contentWindow?.postMessage(contextOf(current.current), origin);

  // A frame asks for the context: answered to that frame, on the origin it was given.
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.data !== ASK) {
        return;
      }
      for (const [frame, origin] of frames.current) {
        if (frame.contentWindow === e.source && e.origin === origin) {
          send(frame, origin);
        }
      }
    };
    addEventListener("message", onMessage);
    return () => removeEventListener("message", onMessage);
  }, []);

  const sendAll = () => {
    for (const [frame, origin] of frames.current) {
      send(frame, origin);
    }
  };
  // Another conversation opened: every frame already there hears of it at once, and once more
  // when its messages have come (an opened conversation's messages often arrive after it).
  useEffect(sendAll, [c.id]);
  const withMessages = useRef(0);
  useEffect(
    () =>
      effect(() => {
        const id = current.current.id;
        const has = messages.value.some((m) => m.conversation_id === id);
        if (has && withMessages.current !== id) {
          withMessages.current = id;
          sendAll();
        }
      }),
    [],
  );

  if (apps.length === 0) {
    return null;
  }
  const choose = (id: number) => {
    setOpen(id);
    if (id !== 0 && !shown.includes(id)) {
      setShown([...shown, id]);
    }
  };
  return (
    <div class={open ? "dash-apps open" : "dash-apps"}>
      <div class="dash-tabs" role="tablist" aria-label="Conversation and apps">
        <button type="button" role="tab" aria-selected={open === 0} onClick={() => choose(0)}>
          Messages
        </button>
        {apps.map((app) => (
          <button
            type="button"
            role="tab"
            id={`dash-tab-${app.id}`}
            aria-selected={open === app.id}
            aria-controls={shown.includes(app.id) ? `dash-app-${app.id}` : undefined}
            onClick={() => choose(app.id)}
          >
            {app.title}
          </button>
        ))}
      </div>
      {apps
        .filter((app) => shown.includes(app.id))
        .map((app) => (
          <div
            class="dash-app"
            role="tabpanel"
            id={`dash-app-${app.id}`}
            aria-labelledby={`dash-tab-${app.id}`}
            hidden={open !== app.id}
            key={app.id}
          >
            {app.content.map((item) => {
              const origin = item.type === "frame" ? originOf(item.url) : null;
              return origin ? (
                <iframe
                  title={app.title}
                  src={item.url}
                  sandbox={SANDBOX}
                  referrerpolicy="no-referrer"
                  ref={(el) => {
                    if (el) {
                      frames.current.set(el, origin);
                    } else {
                      for (const [frame] of frames.current) {
                        if (!frame.isConnected) {
                          frames.current.delete(frame);
                        }
                      }
                    }
                  }}
                  onLoad={(e) => send(e.currentTarget as HTMLIFrameElement, origin)}
                />
              ) : null;
            })}
          </div>
        ))}
    </div>
  );
}
