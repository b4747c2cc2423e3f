// Shared helpers for the widget's unit tests (happy-dom).
import type { ComponentChild } from "preact";
import { vi } from "vitest";
import type { InboxSettings, Message } from "../../widget/src/app/api/types";
import { configure } from "../../widget/src/app/config";
import { mount } from "../../widget/src/app/mount";
import { resetChat } from "../../widget/src/app/state/chat";
import { saveSession } from "../../widget/src/app/state/session";
import { online } from "../../widget/src/app/state/ui";

/** Renders like the app does (re-rendering on signal changes) into a fresh container. */
export function show(view: () => ComponentChild) {
  const root = document.createElement("div");
  document.body.appendChild(root);
  const unmount = mount(view, root);
  return {
    root,
    cleanup() {
      unmount();
      root.remove();
    },
  };
}

/** Lets microtasks (the scheduled re-render) and pending promises run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let nextId = 1;
export function message(overrides: Partial<Message> = {}): Message {
  const id = overrides.id ?? nextId++;
  return {
    id,
    content: `message ${id}`,
    message_type: 1,
    content_type: "text",
    content_attributes: {},
    created_at: 1_700_000_000 + id,
    conversation_id: 1,
    seq: id,
    status: "sent",
    echo_id: null,
    attachments: [],
    sender: { id: 7, name: "Alan Agent", type: "user", avatar_url: "", thumbnail: "" },
    ...overrides,
  };
}

/** A fetch stand-in answering by "METHOD path" (path without the API prefix). */
export function fakeApi(
  handler: (method: string, path: string, body: unknown) => unknown | Promise<unknown>,
) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const path = url.pathname.replace("/public/api/v1", "") + url.search;
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : init?.body;
    calls.push({ method, path, body });
    const answer = await handler(method, path, body);
    if (answer instanceof Response) {
      return answer;
    }
    return new Response(JSON.stringify(answer ?? {}), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

/** A web-widget inbox's public settings as the app reads them; each test names what it varies. */
export function inboxSettings(overrides: Partial<InboxSettings> = {}): InboxSettings {
  return {
    identifier: "inbox-1",
    name: "Acme",
    timezone: "UTC",
    working_hours: [],
    working_hours_enabled: false,
    csat_survey_enabled: false,
    greeting_enabled: true,
    greeting_message: "Hello! How can we help?",
    welcome_title: "Hi there",
    welcome_tagline: "We reply fast",
    widget_color: "#1f5fbf",
    enable_email_collect: false,
    pre_chat_form_enabled: false,
    pre_chat_form_options: {},
    reply_time: "in_a_few_minutes",
    out_of_office_message: null,
    identity_validation_enabled: false,
    channel_type: "Channel::WebWidget",
    locale: null,
    available_agents: [],
    portal: null,
    ...overrides,
  };
}

/** A fresh chat, online, for a visitor whose session already has conversation 9. */
export function returningVisitor() {
  configure("#inbox=inbox-1", "en");
  resetChat();
  online.value = true;
  saveSession({
    sourceId: "src-1",
    pubsubToken: "t",
    identifier: null,
    email: null,
    conversationId: 9,
  });
}
