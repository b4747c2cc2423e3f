import { requestClose } from "../bridge";
import { embedded } from "../config";
import { type Key, t } from "../i18n";
import { isWithinWorkingHours } from "../lib/hours";
import { browsingHelp, helpHome, settings } from "../state/ui";
import { Avatar } from "./Avatar";
import { Icon } from "./Icon";

/**
 * The welcome title on the inbox's colour, up to three of its agents (a dot on those online),
 * one line of expectation, a close button.
 */
export function Header({ help }: { help?: boolean }) {
  const s = settings.value;
  if (!s) {
    return null;
  }
  const replyKey = `reply_${s.reply_time}` as Key;
  // A copy cached before the inbox record had agents has none.
  const agents = s.available_agents || [];
  const someone = agents.some((a) => a.availability_status === "online");
  // Agents are known and none is online: that is the expectation, whatever the hours say.
  const away = agents[0] && !someone;
  const available = !away && isWithinWorkingHours(s);
  // One line of expectation: the owner's tagline when there is one (it usually says the reply
  // time already), else the inbox's reply time while it is open; never both.
  const line = away ? t("away_now") : s.welcome_tagline || (available && t(replyKey));
  return (
    <header class="pw-head">
      <div class="pw-head-text">
        {agents[0] && (
          // Decorative: the line below says whether anyone is there.
          <p class="pw-agents" aria-hidden="true">
            {agents.slice(0, 3).map((a) => (
              <span key={a.name} class={a.availability_status}>
                <Avatar name={a.name} url={a.avatar_url} />
              </span>
            ))}
          </p>
        )}
        <h1 dir="auto">{s.welcome_title || s.name}</h1>
        {line && (
          <p class="pw-status" dir="auto">
            {/* The green dot means someone is there: never for an inbox without agents online. */}
            {available && someone && <span class="pw-online" aria-hidden="true" />}
            {line}
          </p>
        )}
      </div>
      {/* From a conversation back to the help center's articles (an inbox with a portal). */}
      {help && s.portal && helpHome.value && (
        <button
          type="button"
          class="pw-icon"
          aria-label={t("help")}
          onClick={() => {
            browsingHelp.value = true;
          }}
        >
          <Icon name="help" />
        </button>
      )}
      {embedded() && (
        <button type="button" class="pw-icon" aria-label={t("close")} onClick={requestClose}>
          <Icon name="close" />
        </button>
      )}
    </header>
  );
}
