import { t } from "../i18n";
import type { Pending } from "../state/conversation";
import { retry } from "../state/outbox";

/**
 * A message on its way: sending, waiting for the network, held back by the rate limit (it says
 * so, and goes out after Retry-After), or failed with a retry.
 */
export function PendingBubble({ item }: { item: Pending }) {
  return (
    <li class="pw-msg pw-own pw-pending" data-state={item.state}>
      <div class="pw-bubble" dir="auto">
        {item.content}
      </div>
      <div class="pw-meta">
        {item.state === "failed" ? (
          <>
            <span class="pw-error">{t("failed")}</span>
            <button type="button" class="pw-link" onClick={() => retry(item.echo_id)}>
              {t("retry")}
            </button>
          </>
        ) : (
          <span>{t(item.state)}</span>
        )}
      </div>
    </li>
  );
}
