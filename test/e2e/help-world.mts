// A web-widget inbox of its own for the help-center and header tests (the shared seeded inbox
// stays without a portal, so the other suites keep their plain chat): made through the account
// API as a site owner would.
import { accountCall } from "./harness.mts";

const call = (base: string, method: string, url: string, body?: unknown) =>
  accountCall(base)(method, url, body);

let seq = 0;

/**
 * A web-widget inbox; `agents`: names and presence of its members (made for it); `settings`:
 * more inbox fields (email collection is off unless asked for, so a chat gets only the greeting).
 */
export async function createWidgetInbox(
  base: string,
  name: string,
  agents: [string, "online" | "busy" | "offline"][] = [],
  settings: Record<string, unknown> = {},
): Promise<{ id: number; identifier: string }> {
  const inbox = await call(base, "POST", "/inboxes", {
    name,
    channel: {
      type: "web_widget",
      website_url: "https://shop.example",
      welcome_title: "Hi there!",
      widget_color: "#1f5fbf",
    },
    greeting_enabled: true,
    greeting_message: "Hello! How can we help?",
    enable_email_collect: false,
    ...settings,
  });
  const userIds: number[] = [];
  for (const [agentName, availability] of agents) {
    const agent = await call(base, "POST", "/agents", {
      name: agentName,
      email: `agent-${Date.now()}-${++seq}@e2e.example`,
      availability_status: availability,
      // No socket of theirs is open here: the chosen status shows only without auto_offline.
      auto_offline: false,
    });
    userIds.push(agent.id);
  }
  if (userIds.length > 0) {
    await call(base, "POST", "/inbox_members", { inbox_id: inbox.id, user_ids: userIds });
  }
  return { id: inbox.id, identifier: inbox.inbox_identifier };
}

export const ARTICLES = [
  {
    title: "Track your order",
    description: "Where your parcel is, and when it arrives.",
    content:
      "Open **Orders**, then pick the order.\n\n## Delivery times\n\n- Standard: 3–5 days\n- Express: next day\n\nSee [the carriers' page](https://example.com/carriers).",
  },
  {
    title: "Return an item",
    description: "30 days to change your mind, free of charge.",
    content: "Print the label from **Orders → Return**, then drop the parcel at any post office.",
  },
  {
    title: "Change your delivery address",
    description: "Before the parcel leaves our warehouse.",
    content: "Open the order and choose *Edit address*.",
  },
];

/** A portal linked to the inbox, with the published ARTICLES; returns the portal's slug. */
export async function linkPortal(base: string, inboxId: number): Promise<string> {
  const slug = `help-${Date.now().toString(36)}-${++seq}`;
  await call(base, "POST", "/portals", {
    name: "Acme Help",
    slug,
    inbox_id: inboxId,
    config: { allowed_locales: ["en"], default_locale: "en" },
  });
  for (const article of ARTICLES) {
    await call(base, "POST", `/portals/${slug}/articles`, { ...article, status: 1 });
  }
  return slug;
}
