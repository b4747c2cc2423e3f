import { z } from "@hono/zod-openapi";
import { unwrapped } from "../../http/schemas/envelopes";

export const AGENT_ROLES = ["agent", "administrator"] as const;
export const AVAILABILITIES = ["online", "offline", "busy"] as const;

export const AgentSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    availability_status: z.enum(AVAILABILITIES),
    auto_offline: z.boolean(),
    confirmed: z.boolean(),
    email: z.string(),
    available_name: z.string(),
    name: z.string(),
    role: z.enum(AGENT_ROLES),
    thumbnail: z.string(),
    custom_role_id: z.number().int().nullable(),
  })
  .openapi("Agent", { description: "The spec's inbox member (agent) record." });

export const AgentListSchema = z.array(AgentSchema).openapi("AgentList");

/** Chatwoot's swagger calls "online" "available"; both are accepted. */
const availability = z.preprocess(
  (v) => (v === "available" ? "online" : v),
  z.enum(AVAILABILITIES).openapi({ example: "online" }),
);

const fields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Jane Doe" }),
  role: z.enum(AGENT_ROLES).openapi({ example: "agent" }),
  availability_status: availability,
  /** Chatwoot's controller reads `availability`; the swagger says `availability_status`. */
  availability: availability,
  auto_offline: z.boolean(),
};

export const AgentCreateSchema = unwrapped(
  "agent",
  z
    .object({
      ...fields,
      email: z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.email().max(255))
        .openapi({ example: "jane@example.com" }),
      role: fields.role.default("agent"),
      availability_status: fields.availability_status.optional(),
      availability: fields.availability.optional(),
      auto_offline: fields.auto_offline.optional(),
    })
    .openapi("AgentCreate"),
);

export const AgentUpdateSchema = unwrapped(
  "agent",
  z.object(fields).partial().openapi("AgentUpdate"),
);

export type AgentCreate = z.infer<typeof AgentCreateSchema>;
export type AgentUpdate = z.infer<typeof AgentUpdateSchema>;
