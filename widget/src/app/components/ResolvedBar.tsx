import { t } from "../i18n";
import { startNewConversation } from "../state/chat";

/** Shown instead of the composer once agents resolved the conversation. */
export function ResolvedBar() {
  return (
    <div class="pw-resolved" role="status">
      <p>{t("resolved")}</p>
      <button type="button" class="pw-button" onClick={startNewConversation}>
        {t("new_conversation")}
      </button>
    </div>
  );
}
