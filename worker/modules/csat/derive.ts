import type { DerivedWrites } from "../../events/registry";
import { responseFromMessage } from "./queries";

/**
 * A survey answer becomes a csat_survey_responses row in the batch of the message update that
 * carries it (whoever wrote it: the widget's public update, the survey page), so the stored
 * response is never behind the message nor written twice.
 */
export const csatWrites: DerivedWrites = {
  statements: (db, e, at) => {
    if (e.name !== "message.updated") {
      return [];
    }
    const message = (e.data as { message_id?: number }).message_id;
    return typeof message === "number" ? [responseFromMessage(db, message, at)] : [];
  },
};
