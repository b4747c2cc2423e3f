/**
 * The integration apps Parley runs, in Chatwoot's app shape (config/integration/apps.yml):
 * `webhook`, whose hooks are the account's webhooks (docs/webhooks.md), so a hook acts from the
 * moment it is saved, and `dashboard_apps`, made through their own API (…/dashboard_apps), as in
 * Chatwoot. Chatwoot's other apps each need a third-party service that Parley does not connect
 * to; they are not listed (as Chatwoot leaves out an app it cannot run) and a hook for one is
 * refused, never stored to do nothing.
 */
export const WEBHOOK_APP = {
  id: "webhook",
  name: "Webhooks",
  description:
    "Events of the account (conversations, messages, contacts) POSTed to your URL, signed " +
    "(Standard Webhooks) and retried. Each hook is a webhook of the account.",
  hook_type: "account",
  allow_multiple_hooks: true,
  action: "/webhook",
} as const;

/** Chatwoot's dashboard_apps app: no hooks and no action; enabled once the account has one. */
export const DASHBOARD_APPS_APP = {
  id: "dashboard_apps",
  name: "Dashboard apps",
  description:
    "Your pages in a tab beside each conversation in the agents' app, sent the conversation, " +
    "its contact and the agent by postMessage. Made at /api/v1/accounts/{id}/dashboard_apps.",
  hook_type: "account",
  allow_multiple_hooks: true,
  action: null,
} as const;

/** Chatwoot's apps that Parley does not offer, with the outside service each would need. */
export const UNAVAILABLE_APPS: Record<string, string> = {
  slack: "Slack",
  dialogflow: "Google Dialogflow",
  google_translate: "Google Cloud Translation",
  openai: "OpenAI",
  linear: "Linear",
  notion: "Notion",
  dyte: "Cloudflare RealtimeKit (Dyte)",
  shopify: "Shopify",
  leadsquared: "LeadSquared",
};
