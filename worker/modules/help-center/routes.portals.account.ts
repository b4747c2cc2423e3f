import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { invalidField } from "../../lib/errors";
import { callerUserId } from "../conversations/policy";
import { listPortals } from "./queries.portals";
import { PortalParams } from "./schema.common";
import {
  PortalCreateSchema,
  PortalEnvelopeSchema,
  PortalListSchema,
  PortalUpdateSchema,
} from "./schema.portals";
import { verifyPortalDomain } from "./service.domains";
import {
  createPortal,
  deletePortal,
  loadPortal,
  presentOnePortal,
  presentPortals,
  removePortalLogo,
  setPortalLogo,
  updatePortal,
} from "./service.portals";

const tags = ["Help center"];

const envelope = async (
  c: { var: AccountEnv["Variables"] },
  row: Parameters<typeof presentOnePortal>[1],
) => {
  const json = await presentOnePortal(c.var.deps, row, callerUserId(c.var.actor));
  return { ...json, payload: json };
};

const list = createRoute({
  method: "get",
  path: "/portals",
  tags,
  summary: "List the account's help-center portals",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: {
    200: jsonContent(PortalListSchema, "Every portal of the account"),
    ...errorResponses,
  },
});

const show = createRoute({
  method: "get",
  path: "/portals/{portal_slug}",
  tags,
  summary: "Get a portal by its slug",
  middleware: [requireMember()] as const,
  request: { params: PortalParams },
  responses: { 200: jsonContent(PortalEnvelopeSchema, "The portal"), ...errorResponses },
});

const create = createRoute({
  method: "post",
  path: "/portals",
  tags,
  summary: "Create a portal (administrators)",
  description: "A blank slug is made from the name, unique across the service.",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(unwrapped("portal", PortalCreateSchema)) },
  responses: { 200: jsonContent(PortalEnvelopeSchema, "The new portal"), ...errorResponses },
});

const update = createRoute({
  method: "patch",
  path: "/portals/{portal_slug}",
  tags,
  summary: "Update a portal (E9, administrators)",
  middleware: [requireAdmin] as const,
  request: { params: PortalParams, body: jsonBody(unwrapped("portal", PortalUpdateSchema)) },
  responses: {
    200: jsonContent(PortalEnvelopeSchema, "The portal, also under `payload`"),
    ...errorResponses,
  },
});

const remove = createRoute({
  method: "delete",
  path: "/portals/{portal_slug}",
  tags,
  summary: "Delete a portal with its categories and articles (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: PortalParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Parley's own (Chatwoot has no domain verification).
const verifyDomain = createRoute({
  method: "post",
  path: "/portals/{portal_slug}/custom_domain/verify",
  tags,
  summary: "Verify the portal's custom domain by its DNS TXT record (administrators)",
  description:
    "Looks for `custom_domain_verification.record_value` in the TXT records at `record_name` " +
    "(`_parley-challenge.<domain>`, over DNS-over-HTTPS). Found: the domain is verified and " +
    "serves the portal; a portal of any account that held it verified goes back to pending. " +
    "Not found, or the resolver did not answer: 422 and nothing changes.",
  middleware: [requireAdmin] as const,
  request: { params: PortalParams },
  responses: {
    200: jsonContent(PortalEnvelopeSchema, "The portal, its domain verified"),
    ...errorResponses,
  },
});

const LogoForm = z.object({
  logo: z
    .instanceof(File)
    .openapi({ type: "string", format: "binary", description: "png, jpeg, gif or webp" })
    .optional(),
});

/** A logo sent any other way is a bad input (422), not an unsupported request (415). */
const multipartLogo = createMiddleware<AccountEnv>(async (c, next) => {
  if (!/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) {
    throw invalidField("logo", "must be sent as multipart/form-data");
  }
  await next();
});

const uploadLogo = createRoute({
  method: "post",
  path: "/portals/{portal_slug}/logo",
  tags,
  summary: "Upload the portal's logo (administrators)",
  middleware: [requireAdmin, multipartLogo] as const,
  request: {
    params: PortalParams,
    body: { required: true, content: { "multipart/form-data": { schema: LogoForm } } },
  },
  responses: { 200: jsonContent(PortalEnvelopeSchema, "The portal"), ...errorResponses },
});

const deleteLogo = createRoute({
  method: "delete",
  path: "/portals/{portal_slug}/logo",
  tags,
  summary: "Remove the portal's logo (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: PortalParams },
  responses: { 200: jsonContent(PortalEnvelopeSchema, "The portal"), ...errorResponses },
});

export const portalAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listPortals(c.var.deps.db, c.var.account.id);
    const payload = await presentPortals(c.var.deps, rows, callerUserId(c.var.actor));
    return c.json({ payload, meta: { portals_count: payload.length } }, 200);
  })
  .openapi(show, async (c) => {
    const portal = await loadPortal(c.var.deps, c.var.account.id, c.req.valid("param").portal_slug);
    return c.json(await envelope(c, portal), 200);
  })
  .openapi(create, async (c) => {
    const portal = await createPortal(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(await envelope(c, portal), 200);
  })
  .openapi(update, async (c) => {
    const current = await loadPortal(
      c.var.deps,
      c.var.account.id,
      c.req.valid("param").portal_slug,
    );
    const portal = await updatePortal(c.var.deps, current, c.req.valid("json"));
    return c.json(await envelope(c, portal), 200);
  })
  .openapi(remove, async (c) => {
    const portal = await loadPortal(c.var.deps, c.var.account.id, c.req.valid("param").portal_slug);
    await deletePortal(c.var.deps, portal);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(verifyDomain, async (c) => {
    const current = await loadPortal(
      c.var.deps,
      c.var.account.id,
      c.req.valid("param").portal_slug,
    );
    const portal = await verifyPortalDomain(c.var.deps, current);
    return c.json(await envelope(c, portal), 200);
  })
  .openapi(uploadLogo, async (c) => {
    const current = await loadPortal(
      c.var.deps,
      c.var.account.id,
      c.req.valid("param").portal_slug,
    );
    const logo = c.req.valid("form")?.logo;
    if (!(logo instanceof File)) {
      throw invalidField("logo", "must be an image file (multipart/form-data field `logo`)");
    }
    const portal = await setPortalLogo(c.var.deps, current, logo);
    return c.json(await envelope(c, portal), 200);
  })
  .openapi(deleteLogo, async (c) => {
    const current = await loadPortal(
      c.var.deps,
      c.var.account.id,
      c.req.valid("param").portal_slug,
    );
    const portal = await removePortalLogo(c.var.deps, current);
    return c.json(await envelope(c, portal), 200);
  });
