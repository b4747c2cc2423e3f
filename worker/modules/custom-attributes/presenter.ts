import type { z } from "@hono/zod-openapi";
import type { DefinitionRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import type { DefinitionSchema } from "./schema";

/** Chatwoot renders the raw model here, so its timestamps are ISO strings. */
export function presentDefinition(row: DefinitionRow): z.infer<typeof DefinitionSchema> {
  return {
    id: row.id,
    attribute_display_name: row.attributeDisplayName,
    attribute_display_type: row.attributeDisplayType,
    attribute_description: row.attributeDescription,
    attribute_key: row.attributeKey,
    regex_pattern: row.regexPattern,
    regex_cue: row.regexCue,
    attribute_values: row.attributeValues,
    attribute_model: row.attributeModel,
    default_value: row.defaultValue,
    created_at: isoFromSeconds(row.createdAt),
    updated_at: isoFromSeconds(row.updatedAt),
  };
}
