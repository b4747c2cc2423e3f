import { useEffect } from "preact/hooks";
import { loadDirectory } from "../state/account";
import { feedState, startList, stopList } from "../state/list";
import { conversationPath, go, type Route, route } from "../state/route";
import { loadProfile, profile, signOut, token } from "../state/session";
import { closeThread, conversation, openThread } from "../state/thread";
import { Availability } from "./Availability";
import { ContactPanel } from "./ContactPanel";
import { ConversationList } from "./ConversationList";
import { Profile } from "./Profile";
import { Settings } from "./Settings";
import { helpOpen, ShortcutHelp } from "./Shortcuts";
import { Forgot, link, SignIn } from "./SignIn";
import { Thread } from "./Thread";

type AccountRoute = Extract<Route, { accountId: number }>;

function TopBar({ r }: { r: AccountRoute }) {
  const me = profile.value;
  if (!me) {
    return null;
  }
  const account = me.accounts.find((a) => a.id === r.accountId);
  const admin = account?.role === "administrator";
  return (
    <header class="topbar">
      <h1 class="brand">
        <a
          href={`/app${conversationPath(r.accountId, null)}`}
          onClick={link(conversationPath(r.accountId, null))}
        >
          Parley
        </a>
      </h1>
      {me.accounts.length > 1 ? (
        <select
          aria-label="Account"
          value={r.accountId}
          onChange={(e) =>
            go(conversationPath(Number((e.currentTarget as HTMLSelectElement).value), null))
          }
        >
          {me.accounts.map((a) => (
            <option value={a.id}>{a.name}</option>
          ))}
        </select>
      ) : (
        <span class="account">{account?.name}</span>
      )}
      <nav aria-label="Main">
        <a
          href={`/app${conversationPath(r.accountId, null)}`}
          onClick={link(conversationPath(r.accountId, null))}
          aria-current={r.name === "inbox" ? "page" : undefined}
        >
          Conversations
        </a>
        {admin && (
          <a
            href={`/app/accounts/${r.accountId}/settings/inboxes`}
            onClick={link(`/accounts/${r.accountId}/settings/inboxes`)}
            aria-current={r.name === "settings" ? "page" : undefined}
          >
            Settings
          </a>
        )}
        <a
          href={`/app/accounts/${r.accountId}/profile`}
          onClick={link(`/accounts/${r.accountId}/profile`)}
          aria-current={r.name === "profile" ? "page" : undefined}
        >
          {me.name}
        </a>
      </nav>
      <Availability accountId={r.accountId} id="top-availability" />
      <span
        class={`dot ${feedState.value}`}
        title={feedState.value === "live" ? "Live" : "Connecting"}
      >
        <span class="sr">{feedState.value === "live" ? "Live" : "Connecting"}</span>
      </span>
      <button
        type="button"
        class="link"
        onClick={() => (helpOpen.value = true)}
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
      <button
        type="button"
        class="link"
        onClick={() => {
          signOut();
          go("/login", true);
        }}
      >
        Sign out
      </button>
    </header>
  );
}

function Inbox({ r }: { r: Extract<Route, { name: "inbox" }> }) {
  const me = profile.value;
  useEffect(() => {
    if (me) {
      void loadDirectory(r.accountId);
      startList(r.accountId, me.id);
    }
    return stopList;
  }, [r.accountId, me?.id]);
  useEffect(() => {
    if (r.conversationId) {
      void openThread(r.accountId, r.conversationId);
    } else {
      closeThread();
    }
  }, [r.accountId, r.conversationId]);
  const c = conversation.value;
  const view = r.conversationId === null ? "list" : r.pane === "contact" ? "contact" : "thread";
  return (
    <main class={`inbox show-${view}`}>
      <ConversationList accountId={r.accountId} activeId={r.conversationId} />
      {r.conversationId === null ? (
        <section class="thread-pane placeholder">
          <p class="muted">Pick a conversation. Press ? for the keyboard shortcuts.</p>
        </section>
      ) : (
        <Thread accountId={r.accountId} />
      )}
      {c && r.conversationId !== null && (
        <div class="contact-wrap">
          <button
            type="button"
            class="back"
            onClick={() => go(conversationPath(r.accountId, c.id))}
          >
            ← Back to the conversation
          </button>
          <ContactPanel accountId={r.accountId} c={c} />
        </div>
      )}
    </main>
  );
}

export function App() {
  const r = route.value;
  const t = token.value;
  const me = profile.value;
  useEffect(() => {
    if (t && !me) {
      loadProfile().catch(() => undefined);
    }
  }, [t, me]);
  useEffect(() => {
    if (!t && r.name !== "signin" && r.name !== "forgot") {
      go("/login", true);
    } else if (t && me && (r.name === "home" || r.name === "signin")) {
      const first = me.accounts[0];
      if (first) {
        go(conversationPath(first.id, null), true);
      }
    }
  }, [t, me, r.name]);
  if (r.name === "forgot") {
    return <Forgot />;
  }
  if (!t || r.name === "signin") {
    return <SignIn />;
  }
  if (!me || r.name === "home") {
    return <main class="auth" aria-busy="true" />;
  }
  if (!me.accounts.some((a) => a.id === r.accountId)) {
    return (
      <main class="auth">
        <p class="card">You are not a member of this account.</p>
      </main>
    );
  }
  return (
    <div class="shell">
      <TopBar r={r} />
      {r.name === "inbox" ? (
        <Inbox r={r} />
      ) : r.name === "settings" ? (
        <Settings accountId={r.accountId} section={r.section} />
      ) : (
        <Profile accountId={r.accountId} />
      )}
      <ShortcutHelp />
    </div>
  );
}
