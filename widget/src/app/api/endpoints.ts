import { config } from "../config";
import { apiBase, request } from "./client";
import type {
  ContactInput,
  ContactSession,
  Conversation,
  InboxSettings,
  Message,
  WidgetEvent,
} from "./types";

const enc = encodeURIComponent;
const inbox = () => `/inboxes/${enc(config.inbox)}`;
const contact = (sourceId: string) => `${inbox()}/contacts/${enc(sourceId)}`;
const conversation = (sourceId: string, id: number) => `${contact(sourceId)}/conversations/${id}`;

/** One function per public-API endpoint the widget uses. */
export const api = {
  inbox: () => request<InboxSettings>(inbox()),
  createContact: (body: ContactInput) =>
    request<ContactSession>(`${inbox()}/contacts`, { json: body }),
  updateContact: (sourceId: string, body: ContactInput) =>
    request<ContactSession>(contact(sourceId), { method: "PATCH", json: body }),
  event: (sourceId: string, body: WidgetEvent) =>
    request<object>(`${contact(sourceId)}/events`, { json: body }),
  conversations: (sourceId: string) =>
    request<Conversation[]>(`${contact(sourceId)}/conversations`),
  createConversation: (sourceId: string) =>
    request<Conversation>(`${contact(sourceId)}/conversations`, { json: {} }),
  conversation: (sourceId: string, id: number) => request<Conversation>(conversation(sourceId, id)),
  messages: (sourceId: string, id: number, before?: number) =>
    request<Message[]>(
      `${conversation(sourceId, id)}/messages${before ? `?before=${before}` : ""}`,
    ),
  send: (sourceId: string, id: number, content: string, echoId: string) =>
    request<Message>(`${conversation(sourceId, id)}/messages`, {
      json: { content, echo_id: echoId },
    }),
  sendFile: (sourceId: string, id: number, file: File, echoId: string) => {
    const form = new FormData();
    form.append("attachments[]", file);
    form.append("echo_id", echoId);
    return request<Message>(`${conversation(sourceId, id)}/messages`, { form });
  },
  /** A bot's or agent's prompt answered (Chatwoot's submitted_values). */
  answer: (sourceId: string, id: number, messageId: number, values: unknown) =>
    request<Message>(`${conversation(sourceId, id)}/messages/${messageId}`, {
      method: "PATCH",
      json: { submitted_values: values },
    }),
  typing: (sourceId: string, id: number, on: boolean) =>
    request<object>(`${conversation(sourceId, id)}/toggle_typing`, {
      json: { typing_status: on ? "on" : "off" },
    }),
  seen: (sourceId: string, id: number) =>
    request<object>(`${conversation(sourceId, id)}/update_last_seen`, { method: "POST" }),
  liveUrl: (sourceId: string, id: number, after: number) =>
    `${apiBase().replace(/^http/, "ws")}${conversation(sourceId, id)}/live?batch=1&after=${after}`,
};
