import { t } from "../i18n";
import { isWithinWorkingHours } from "../lib/hours";
import { connection, online, settings } from "../state/ui";

/** Away (outside working hours) and connection notices above the conversation. */
export function Notices() {
  const s = settings.value;
  const away = s && !isWithinWorkingHours(s);
  const offline = !online.value;
  const reconnecting = !offline && ["reconnecting", "polling"].includes(connection.value);
  return (
    <>
      {away && <p class="pw-notice">{s.out_of_office_message || t("away")}</p>}
      <p class="pw-notice pw-net" role="status" hidden={!offline && !reconnecting}>
        {offline ? t("offline") : reconnecting ? t("reconnecting") : ""}
      </p>
    </>
  );
}
