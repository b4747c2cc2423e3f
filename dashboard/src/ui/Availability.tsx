import type { Availability as Choice } from "../lib/types";
import { availabilityError, chooseAvailability, membershipOf } from "../state/presence";

const LABELS: Record<Choice, string> = { online: "Online", busy: "Busy", offline: "Offline" };

/**
 * The agent's own availability in this account. The select holds their choice; the dot shows
 * what others see (online chosen, but no socket open yet: offline).
 */
export function Availability({ accountId, id }: { accountId: number; id: string }) {
  const m = membershipOf(accountId);
  if (!m) {
    return null;
  }
  const chosen = m.availability ?? "online";
  const seen = m.availability_status ?? chosen;
  return (
    <span class="availability">
      <span class={`avail-dot ${seen}`} title={`Others see you ${LABELS[seen].toLowerCase()}`} />
      <label class="sr" for={id}>
        Availability
      </label>
      <select
        id={id}
        value={chosen}
        onChange={(e) =>
          void chooseAvailability(accountId, (e.currentTarget as HTMLSelectElement).value as Choice)
        }
      >
        {(Object.keys(LABELS) as Choice[]).map((v) => (
          <option value={v}>{LABELS[v]}</option>
        ))}
      </select>
      {availabilityError.value && (
        <span role="alert" class="error">
          {availabilityError.value}
        </span>
      )}
    </span>
  );
}
