/**
 * The integration apps Parley runs, in Chatwoot's app shape (config/integration/apps.yml). Only
 * `webhook` is offered: its hooks are the account's webhooks (docs/webhooks.md), so a hook acts
 * from the moment it is saved. Chatwoot's other apps each need a third-party service that Parley
 * does not connect to; they are not listed (as Chatwoot leaves out an app it cannot run) and a
 * hook for one is refused, never stored to do nothing.
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
  dashboard_apps: "a dashboard-apps store (Parley's agents' app has none yet)",
};
