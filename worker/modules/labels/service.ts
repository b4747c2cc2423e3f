import type { LabelRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import {
  deleteLabel as deleteLabelRow,
  findLabel,
  findLabelByTitle,
  insertLabel,
  type NewLabel,
  updateLabel as updateLabelRow,
} from "./queries";
import { DEFAULT_LABEL_COLOR, type LabelCreate, type LabelUpdate } from "./schema";

const titleTaken = () =>
  invalidField("title", "has already been taken", "Title has already been taken");

export async function loadLabel(deps: Deps, accountId: number, id: number): Promise<LabelRow> {
  const label = await findLabel(deps.db, accountId, id);
  if (!label) {
    throw new ApiError("not_found");
  }
  return label;
}

function labelValues(input: LabelUpdate): Partial<NewLabel> {
  const values: Partial<NewLabel> = {};
  if (input.title !== undefined) {
    values.title = input.title;
  }
  if (input.description !== undefined) {
    values.description = input.description;
  }
  if (input.color !== undefined) {
    values.color = input.color;
  }
  if (input.show_on_sidebar !== undefined) {
    values.showOnSidebar = input.show_on_sidebar;
  }
  return values;
}

/** Chatwoot parity: titles are unique per account (compared lower-cased, as stored). */
export async function createLabel(
  deps: Deps,
  accountId: number,
  input: LabelCreate,
): Promise<LabelRow> {
  if (await findLabelByTitle(deps.db, accountId, input.title)) {
    throw titleTaken();
  }
  try {
    const values = {
      color: DEFAULT_LABEL_COLOR,
      ...labelValues(input),
      title: input.title,
      accountId,
    };
    const [row] = await insertLabel(deps.db, values);
    if (!row) {
      throw new ApiError("internal_error");
    }
    return row;
  } catch (err) {
    throw isUniqueViolation(err) ? titleTaken() : err;
  }
}

/**
 * Renaming does not retag conversations or contacts yet: Chatwoot does that in a background job,
 * which arrives with conversation labels.
 */
export async function updateLabel(
  deps: Deps,
  label: LabelRow,
  input: LabelUpdate,
): Promise<LabelRow> {
  if (
    input.title !== undefined &&
    (await findLabelByTitle(deps.db, label.accountId, input.title, label.id))
  ) {
    throw titleTaken();
  }
  try {
    const values = { ...labelValues(input), updatedAt: deps.now() };
    const [row] = await updateLabelRow(deps.db, label.accountId, label.id, values);
    return row ?? label;
  } catch (err) {
    throw isUniqueViolation(err) ? titleTaken() : err;
  }
}

export async function deleteLabel(deps: Deps, label: LabelRow): Promise<void> {
  await deleteLabelRow(deps.db, label.accountId, label.id);
}
