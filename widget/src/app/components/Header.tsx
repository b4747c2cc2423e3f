import { requestClose } from "../bridge";
import { embedded } from "../config";
import { type Key, t } from "../i18n";
import { isWithinWorkingHours } from "../lib/hours";
import { settings } from "../state/ui";
import { Icon } from "./Icon";

/** The welcome title on the inbox's colour, the expected reply time, a close button. */
export function Header() {
  const s = settings.value;
  if (!s) {
    return null;
  }
  const replyKey = `reply_${s.reply_time}` as Key;
  const available = isWithinWorkingHours(s);
  return (
    <header class="pw-head">
      <div class="pw-head-text">
        <h1 dir="auto">{s.welcome_title || s.name}</h1>
        {/* One line of reply time (the tagline is in the welcome card, not said twice). */}
        {available && t(replyKey) && (
          <p class="pw-status">
            <span class="pw-online" aria-hidden="true" />
            {t(replyKey)}
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
