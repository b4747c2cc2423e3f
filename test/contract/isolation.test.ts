import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
import { openApiConfig } from "../../worker/http/openapi";
import {
  createContact,
  createContactInbox,
  createConversation,
  insertMessage,
} from "../support/factories-conversations";
import { freshIp } from "../support/factories-public";
import {
  createTenant,
  fill,
  type Tenant,
  tenantState,
  valueFor,
} from "../support/factories-tenants";
import { api } from "../support/http";

/**
 * The isolation matrix: every route of /openapi.json with a path id, called with the ids of
 * one tenant's records and the credentials of someone who may not see them, answers 401, 403
 * or 404, never 2xx, and never shows the victim's data. Routes come from the document, so a
 * new route is covered (or fails "unmapped") without touching this file.
 */

type Document = { paths: Record<string, Record<string, unknown>> };
const document = createApp().getOpenAPI31Document(openApiConfig("test")) as unknown as Document;
const METHODS = ["get", "post", "put", "patch", "delete"];

type Route = { method: string; path: string; params: string[] };
const routes: Route[] = Object.entries(document.paths)
  .flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => METHODS.includes(m))
      .map((m) => ({
        method: m.toUpperCase(),
        path,
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1] as string),
      })),
  )
  .filter((r) => r.params.length > 0);

/** Routes with a path id that are open by design, and why. */
const EXEMPT: Record<string, string> = {
  "GET /public/api/v1/inboxes/{inbox_identifier}":
    "the inbox identifier is the widget's public address: its settings are public",
  "POST /public/api/v1/inboxes/{inbox_identifier}/contacts":
    "anyone may become a contact of a public inbox",
  "GET /files/{account_id}/{folder}/{name}": "a capability URL: the random name is the secret",
  "GET /public/api/v1/csat_survey/{conversation_uuid}":
    "the survey link (Chatwoot's): the conversation's random uuid is the secret; it shows the survey only",
  "PUT /public/api/v1/csat_survey/{conversation_uuid}":
    "the survey link (Chatwoot's): the conversation's random uuid is the secret; it answers the survey only",
  "GET /survey/responses/{conversation_uuid}":
    "the survey page (Chatwoot's link): the conversation's random uuid is the secret; it shows the survey only",
};

/** Help-center path ids (issue 13): each tenant's portal, category and article, made in beforeAll. */
const helpCenterIds = new Map<number, Record<string, string>>();
const HELP_CENTER_KEYS = new Set([
  "portals/portal_slug",
  "categories/category_id",
  "articles/article_id",
]);
function idFor(w: Tenant, path: string, param: string): string | undefined {
  const key = `${path.split(`/{${param}}`)[0]?.split("/").pop()}/${param}`;
  if (HELP_CENTER_KEYS.has(key)) {
    return helpCenterIds.get(w.account.id)?.[key] ?? "unset";
  }
  return valueFor(w, path, param);
}
async function createHelpCenter(w: Tenant, marker: string) {
  const base = `/api/v1/accounts/${w.account.id}/portals`;
  const portal = await api(base, {
    method: "POST",
    token: w.admin.token,
    body: { name: `Portal ${marker}`, slug: `hc-${marker}` },
  });
  const category = await api(`${base}/${portal.body.slug}/categories`, {
    method: "POST",
    token: w.admin.token,
    body: { name: `Category ${marker}` },
  });
  const article = await api(`${base}/${portal.body.slug}/articles`, {
    method: "POST",
    token: w.admin.token,
    body: { title: `Article ${marker}`, category_id: category.body.id },
  });
  helpCenterIds.set(w.account.id, {
    "portals/portal_slug": portal.body.slug,
    "categories/category_id": String(category.body.id),
    "articles/article_id": String(article.body.id),
  });
}

/** The victim's portals, categories and articles as stored (tenantState predates them). */
let helpCenterSnapshot: unknown;
const helpCenterState = async (w: Tenant) =>
  Object.fromEntries(
    await Promise.all(
      ["portals", "help_categories", "help_articles"].map(async (table) => [
        table,
        (
          await env.DB.prepare(`SELECT * FROM ${table} WHERE account_id = ? ORDER BY id`)
            .bind(w.account.id)
            .all()
        ).results,
      ]),
    ),
  );

const valuesOf = (w: Tenant, route: Route) =>
  Object.fromEntries(route.params.map((p) => [p, idFor(w, route.path, p)])) as Record<
    string,
    string
  >;

const victimMarker = `vicmark${Date.now().toString(36)}`;
let victim: Tenant;
let attacker: Tenant;
/** A contact of the victim's inbox who is not the victim: its own conversation and message. */
let intruder: { sourceId: string; conversationId: number; messageId: number };
let snapshot: unknown;

type Case = {
  name: string;
  /** Credentials sent as api_access_token (none on the public API). */
  token?: () => string;
  values: (route: Route) => Record<string, string>;
  /** Extra statuses this case may answer (a write reaching validation in the caller's own account). */
  alsoOk?: number[];
};

const INBOX_SCOPED = (r: Route) =>
  r.params.includes("conversation_id") ||
  r.params.includes("message_id") ||
  /\/inboxes\/\{id\}|\/inbox_members\/\{inbox_id\}/.test(r.path);

function casesFor(route: Route): Case[] {
  const victimValues = (r: Route) => valuesOf(victim, r);
  if (/^\/api\/v[12]\/accounts\//.test(route.path)) {
    const cases: Case[] = [
      {
        name: "another account's administrator",
        token: () => attacker.admin.token,
        values: victimValues,
      },
      {
        name: "another account's agent bot",
        token: () => attacker.bot.token,
        values: victimValues,
      },
      { name: "a platform app token", token: () => attacker.app.token, values: victimValues },
    ];
    // The attacker's own account, with one of the victim's (globally numbered) ids in it.
    for (const param of route.params) {
      if (param === "account_id" || param === "conversation_id") {
        continue; // account-scoped: the same number names the attacker's own record
      }
      cases.push({
        name: `another account's administrator, own account, victim's {${param}}`,
        token: () => attacker.admin.token,
        values: (r) => ({ ...valuesOf(attacker, r), [param]: idFor(victim, r.path, param)! }),
        alsoOk: route.method === "GET" ? [] : [422],
      });
    }
    if (route.path.startsWith("/api/v2/")) {
      // Reports are for administrators: an agent of the very account is refused too.
      cases.push({
        name: "an agent of the account",
        token: () => victim.outsider.token,
        values: victimValues,
      });
    }
    if (INBOX_SCOPED(route)) {
      cases.push(
        {
          name: "an agent who is not a member of the inbox",
          token: () => victim.outsider.token,
          values: victimValues,
        },
        {
          name: "an agent bot of another inbox",
          token: () => victim.otherBot.token,
          values: victimValues,
        },
      );
    }
    return cases;
  }
  if (route.path.startsWith("/platform/")) {
    return [
      { name: "another platform app", token: () => attacker.app.token, values: victimValues },
      { name: "a user token", token: () => victim.admin.token, values: victimValues },
    ];
  }
  if (route.path.startsWith("/public/")) {
    const cases: Case[] = [];
    if (route.params.includes("contact_identifier")) {
      cases.push(
        {
          name: "a contact of another inbox",
          values: (r) => ({
            ...victimValues(r),
            contact_identifier: attacker.contactInbox.sourceId,
          }),
        },
        {
          name: "the victim's contact identifier through another inbox",
          values: (r) => ({ ...victimValues(r), inbox_identifier: attacker.inbox.inboxIdentifier }),
        },
      );
    }
    if (route.params.includes("conversation_id")) {
      cases.push({
        name: "another contact of the same inbox, the victim's conversation",
        values: (r) => ({
          ...victimValues(r),
          contact_identifier: intruder.sourceId,
          ...(r.params.includes("message_id") ? { message_id: String(intruder.messageId) } : {}),
        }),
      });
    }
    if (route.params.includes("message_id")) {
      cases.push({
        name: "another contact of the same inbox, its own conversation, the victim's message",
        values: (r) => ({
          ...victimValues(r),
          contact_identifier: intruder.sourceId,
          conversation_id: String(intruder.conversationId),
        }),
      });
    }
    return cases;
  }
  return [];
}

/**
 * A body the route would accept from its rightful caller, so that a refusal is the access
 * check's and not the validator's (`{}` where nothing is required). Never the victim's data.
 */
function bodyFor(route: Route): unknown {
  const a = attacker;
  const rules: [RegExp, unknown][] = [
    [/\/toggle_typing(_status)?$/, { typing_status: "on" }],
    [/\/toggle_status$/, { status: "resolved" }],
    [/\/toggle_priority$/, { priority: "high" }],
    [/\/assignments$/, { assignee_id: null }],
    [/\/conversations\/\{conversation_id\}\/custom_attributes$/, { custom_attributes: { k: "v" } }],
    [/\/labels$/, { labels: ["isolation"] }],
    [/\/messages$/, { content: "isolation" }],
    [
      /\/messages\/\{message_id\}$/,
      route.path.startsWith("/public/")
        ? { submitted_values: [{ name: "n", title: "t", value: "v" }] }
        : { content: "isolation" },
    ],
    [/\/contact_inboxes$/, { inbox_id: a.inbox.id }],
    [/\/team_members$/, { user_ids: [a.agent.id] }],
    [
      /\/account_users$/,
      route.method === "DELETE"
        ? { user_id: a.platformUser.id }
        : { user_id: a.platformUser.id, role: "agent" },
    ],
    [/\/set_agent_bot$/, { agent_bot: null }],
    [/\/agents\/\{id\}$/, { role: "agent" }],
    [/\/custom_attribute_definitions\/\{id\}$/, { attribute_display_name: "isolation" }],
    [/\/labels\/\{id\}$/, { title: "isolation" }],
    [/\/teams\/\{team_id\}$/, { name: "isolation" }],
    [/\/webhooks\/\{webhook_id\}$/, { name: "isolation" }],
    [
      /\/(contacts|inboxes|agent_bots|automation_rules|accounts|users)\/\{[a-z_]+\}$/,
      { name: "isolation" },
    ],
  ];
  return rules.find(([re]) => re.test(route.path))?.[1];
}

/** Refusals that came from the validator, not the access check (printed at the end). */
const validationFirst: string[] = [];

/** Searches look for the victim's marker: a leak would show it. */
const queryFor = (route: Route) => {
  if (route.method === "GET" && /\/(contacts\/search|conversations)$/.test(route.path)) {
    return route.path.startsWith("/api/v2/") ? "" : `?q=${victimMarker}`;
  }
  // Report reads need a range (and the time series a metric) to answer 200 to the control.
  if (route.path.endsWith("/reports")) {
    return "?metric=conversations_count&since=0&until=86400";
  }
  if (route.path.endsWith("/summary_reports/channel")) {
    return "?since=0&until=86400";
  }
  if (route.path.endsWith("/reports/outgoing_messages_count")) {
    return "?group_by=agent";
  }
  return route.path.endsWith("/reports/summary") ? "?since=0&until=86400" : "";
};

async function call(route: Route, path: string, token?: string) {
  const headers: Record<string, string> = { "cf-connecting-ip": freshIp() };
  if (token !== undefined) {
    headers.api_access_token = token;
  }
  if (path.endsWith("/live")) {
    // A live socket: asked for as the browser does; a foreign caller must not get a 101.
    const res = await SELF.fetch(`http://parley.test${path}`, {
      headers: { ...headers, upgrade: "websocket" },
    });
    res.webSocket?.accept();
    res.webSocket?.close();
    return { status: res.status, text: res.webSocket ? "" : await res.text() };
  }
  const body =
    route.method === "GET"
      ? undefined
      : (bodyFor(route) ?? (route.method === "DELETE" ? undefined : {}));
  const res = await api(`${path}${queryFor(route)}`, {
    method: route.method,
    token,
    headers,
    body,
  });
  return { status: res.status, text: JSON.stringify(res.body) };
}

beforeAll(async () => {
  victim = await createTenant(victimMarker);
  attacker = await createTenant(`atk${Date.now().toString(36)}`);
  const contact = await createContact(victim.account.id, { name: "Intruder" });
  const contactInbox = await createContactInbox(contact.id, victim.inbox.id);
  const conversation = await createConversation(victim.account.id, victim.inbox.id, {
    contactId: contact.id,
    contactInboxId: contactInbox.id,
  });
  const message = await insertMessage(conversation, { content: "intruder" });
  await createHelpCenter(victim, victimMarker);
  await createHelpCenter(attacker, `atk${Date.now().toString(36)}`);
  intruder = {
    sourceId: contactInbox.sourceId,
    conversationId: conversation.displayId,
    messageId: message.id,
  };
  snapshot = await tenantState(victim);
  helpCenterSnapshot = await helpCenterState(victim);
});

describe("isolation matrix", () => {
  it("covers every route with a path id: each is mapped or exempt with a reason", () => {
    const unmapped = routes
      .filter((r) => !EXEMPT[`${r.method} ${r.path}`])
      .flatMap((r) =>
        r.params.filter((p) => !KNOWN(r.path, p)).map((p) => `${r.method} ${r.path}: {${p}}`),
      );
    expect(unmapped).toEqual([]);
    const uncovered = routes
      .filter((r) => !EXEMPT[`${r.method} ${r.path}`] && casesFor(r).length === 0)
      .map((r) => `${r.method} ${r.path}`);
    expect(uncovered).toEqual([]);
  });

  const covered = routes.filter((r) => !EXEMPT[`${r.method} ${r.path}`]);
  describe.each(covered.map((r) => [`${r.method} ${r.path}`, r] as const))("%s", (_, route) => {
    it.each(casesFor(route).map((c) => [c.name, c] as const))(
      "refuses %s and shows nothing of the victim's",
      async (_name, c) => {
        const path = fill(route.path, c.values(route));
        const res = await call(route, path, c.token?.());
        const allowed = [401, 403, 404, ...(c.alsoOk ?? [])];
        expect(allowed, `${route.method} ${path} answered ${res.status}: ${res.text}`).toContain(
          res.status,
        );
        expect(res.text).not.toContain(victimMarker);
        if (res.status === 422) {
          validationFirst.push(`${route.method} ${route.path} (${c.name}): ${res.text}`);
        }
      },
    );
  });

  // The control: the same ids with the rightful credentials are found, so the refusals above
  // are the access checks' and not ids that name nothing.
  const reads = covered.filter((r) => r.method === "GET" && !r.path.endsWith("/live"));
  it.each(reads.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "control: %s answers 200 to the victim's own credentials",
    async (_, route) => {
      const token = route.path.startsWith("/platform/")
        ? victim.app.token
        : route.path.startsWith("/public/")
          ? undefined
          : victim.admin.token;
      const res = await call(route, fill(route.path, valuesOf(victim, route)), token);
      expect(res.status, res.text).toBe(200);
      if (route.path.endsWith("/contacts/search")) {
        expect(res.text).toContain(victimMarker); // the marker check would see a leak
      }
    },
  );

  it("left the victim's help center exactly as it was", async () => {
    expect(await helpCenterState(victim)).toEqual(helpCenterSnapshot);
  });

  it("left the victim's data exactly as it was", async () => {
    expect(await tenantState(victim)).toEqual(snapshot);
    if (validationFirst.length > 0) {
      console.info(
        `isolation: ${validationFirst.length} refusals by the validator\n${validationFirst.join("\n")}`,
      );
    }
  });
});

/** Whether valueFor knows a parameter, without a tenant (for the coverage check). */
function KNOWN(path: string, param: string) {
  try {
    return idFor(PROBE, path, param) !== undefined;
  } catch {
    return false;
  }
}
const PROBE = new Proxy({} as Tenant, {
  get: () => new Proxy({}, { get: () => 1 }),
});
