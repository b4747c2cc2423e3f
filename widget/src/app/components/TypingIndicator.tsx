import { t } from "../i18n";
import { typing } from "../state/conversation";

/** "Alan is typing…" while an agent or bot types; announced politely. */
export function TypingIndicator() {
  const name = typing.value;
  return (
    <p class="pw-typing" aria-live="polite">
      {name !== null && (
        <>
          <span class="pw-dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
          {t("typing", { name: name || t("someone") })}
        </>
      )}
    </p>
  );
}
