import { t } from "../i18n";
import { connection, online } from "../state/ui";

/**
 * The connection notice above the conversation. The inbox's greeting, out-of-office message and
 * email request are the server's template messages (modules/templates), shown in the log.
 */
export function Notices() {
  const offline = !online.value;
  const reconnecting = !offline && ["reconnecting", "polling"].includes(connection.value);
  return (
    <p class="pw-notice pw-net" role="status" hidden={!offline && !reconnecting}>
      {offline ? t("offline") : reconnecting ? t("reconnecting") : ""}
    </p>
  );
}
