import { z } from "@hono/zod-openapi";
import { checkJsonBounds, JsonObjectSchema } from "../../http/schemas/bounded-json";
import { isHttpUrl } from "../../http/schemas/urls";

/** "" clears an optional field, as form clients send empty inputs. */
const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

/** Ids arrive as JSON numbers or, from forms and some clients, numeric strings. */
export const NumericId = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, "must be an id"),
  ])
  .transform(Number)
  .openapi({ type: "integer", example: 1 });

const email = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .toLowerCase()
    .max(255)
    .regex(/^[^@\s]+@[^@\s]+$/, "is not a valid email")
    .nullable()
    .optional()
    .openapi({ example: "alice@acme.inc" }),
);

const phoneNumber = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{1,14}$/, "must be in E.164 format, e.g. +14155552671")
    .nullable()
    .optional()
    .openapi({ example: "+14155552671" }),
);

const attributeText = z.string().max(255).nullable().optional();

const AdditionalAttributesInput = z
  .object({
    city: attributeText,
    country: attributeText,
    country_code: attributeText,
    created_at_ip: attributeText,
  })
  .catchall(z.unknown())
  .superRefine(checkJsonBounds)
  .openapi({ example: { city: "Berlin", country: "Germany", country_code: "DE" } });

const contactFields = {
  name: z.preprocess(
    (v) => (v === null ? "" : v),
    z.string().trim().max(255).optional().openapi({ example: "Alice" }),
  ),
  email,
  phone_number: phoneNumber,
  identifier: z.preprocess(blankToNull, z.string().trim().max(255).nullable().optional()),
  blocked: z.boolean().optional(),
  avatar_url: z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(2048)
      .refine(isHttpUrl, "must be an absolute http(s) URL")
      .nullable()
      .optional()
      .openapi({ example: "https://example.com/avatar.png" }),
  ),
  additional_attributes: AdditionalAttributesInput.optional(),
  custom_attributes: JsonObjectSchema.optional().openapi({
    description: "Keys must be contact custom attribute definitions",
  }),
};

const createFields = {
  ...contactFields,
  inbox_id: NumericId.openapi({ description: "An inbox of the account" }),
  source_id: z.preprocess(blankToNull, z.string().trim().max(255).nullable().optional()),
};

export const ContactCreateSchema = z.object(createFields).openapi("ContactCreate");
export const ContactUpdateSchema = z.object(contactFields).openapi("ContactUpdate");

const avatar = z
  .instanceof(File)
  .openapi({
    type: "string",
    format: "binary",
    description: "Avatar image (png, jpeg, gif, webp)",
  })
  .optional();

/**
 * Multipart bodies carry every field as text: JSON objects as JSON strings (or Rails-style
 * `custom_attributes[key]` fields), booleans as "true" / "false".
 */
function fromForm(value: unknown): unknown {
  if (!value || typeof value !== "object") {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const nested = /^(additional_attributes|custom_attributes)\[([^\]]+)\]$/.exec(key);
    if (nested) {
      const [, parent, child] = nested as unknown as [string, string, string];
      const bag = out[parent];
      out[parent] = { ...(bag && typeof bag === "object" ? bag : {}), [child]: raw };
    } else {
      out[key] = raw;
    }
  }
  for (const key of ["additional_attributes", "custom_attributes"]) {
    if (typeof out[key] === "string") {
      try {
        out[key] = JSON.parse(out[key] as string);
      } catch {
        // Left as a string: the schema reports that it is not an object.
      }
    }
  }
  if (out.blocked === "true" || out.blocked === "false") {
    out.blocked = out.blocked === "true";
  }
  if (out.avatar === "") {
    delete out.avatar;
  }
  return out;
}

export const ContactCreateFormSchema = z.preprocess(
  fromForm,
  z.object({ ...createFields, avatar }).openapi("ContactCreateForm"),
);
export const ContactUpdateFormSchema = z.preprocess(
  fromForm,
  z.object({ ...contactFields, avatar }).openapi("ContactUpdateForm"),
);

export const ContactLabelsBody = z
  .object({
    labels: z
      .array(z.string().trim().toLowerCase().min(1).max(255))
      .max(100)
      .openapi({ example: ["vip", "billing"] }),
  })
  .openapi("ContactLabelsChange");

export const ContactInboxCreateBody = z
  .object({
    inbox_id: NumericId,
    source_id: z.preprocess(blankToNull, z.string().trim().max(255).nullable().optional()),
  })
  .openapi("ContactInboxCreate");

export type ContactCreate = z.infer<typeof ContactCreateSchema> & { avatar?: File };
export type ContactUpdate = z.infer<typeof ContactUpdateSchema> & { avatar?: File };
