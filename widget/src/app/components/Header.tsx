import { requestClose } from "../bridge";
import { embedded } from "../config";
import { type Key, t } from "../i18n";
import { isWithinWorkingHours } from "../lib/hours";
import { settings } from "../state/ui";
import { Icon } from "./Icon";

/** The welcome title on the inbox's colour, one line of reply-time expectation, a close button. */
export function Header() {
  const s = settings.value;
  if (!s) {
    return null;
  }
  const replyKey = `reply_${s.reply_time}` as Key;
  const available = isWithinWorkingHours(s);
  // One line of expectation: the owner's tagline when there is one (it usually says the reply
  // time already), else the inbox's reply time while it is open; never both.
  const line = s.welcome_tagline || (available && t(replyKey));
  return (
    <header class="pw-head">
      <div class="pw-head-text">
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
