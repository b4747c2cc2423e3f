import { requestClose } from "../bridge";
import { embedded } from "../config";
import { type Key, t } from "../i18n";
import { isWithinWorkingHours } from "../lib/hours";
import { settings } from "../state/ui";
import { Avatar } from "./Avatar";
import { Icon } from "./Icon";

/**
 * The welcome title on the inbox's colour, up to three of its agents (a dot on those online),
 * one line of expectation, a close button.
 */
export function Header() {
  const s = settings.value;
  if (!s) {
    return null;
  }
  const replyKey = `reply_${s.reply_time}` as Key;
  // A copy cached before the inbox record had agents has none.
  const agents = s.available_agents || [];
  // Agents are known and none is online: that is the expectation, whatever the hours say.
  const away = agents[0] && !agents.some((a) => a.availability_status === "online");
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
            {available && <span class="pw-online" aria-hidden="true" />}
            {line}
          </p>
        )}
      </div>
      {embedded() && (
        <button type="button" class="pw-icon" aria-label={t("close")} onClick={requestClose}>
          <Icon name="close" />
        </button>
      )}
    </header>
  );
}
