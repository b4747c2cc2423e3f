// Issue 20 point 5: a free-form field that PATCH merges into the stored value is bounded on the
// merged value: repeated PATCHes, each within the bounds, cannot grow it past them (422, the
// field named, nothing changed). 200 keys per object is the bound these cases cross.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPlatformApp, createWorld, unique } from "../../support/factories";
import { createContact, createConversation } from "../../support/factories-conversations";
import { type ApiResult, api, expectError } from "../../support/http";

/** 150 keys named `prefix0…`: within the bounds alone, over them once two are merged. */
const keys = (prefix: string) =>
  Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`${prefix}${i}`, i]));

const row = async (sql: string, id: number) =>
  JSON.stringify(await env.DB.prepare(sql).bind(id).first());

type Case = {
  name: string;
  field: string;
  setup: () => Promise<{
    send: (value: Record<string, unknown>) => Promise<ApiResult>;
    stored: () => Promise<string>;
  }>;
};

const cases: Case[] = [
  {
    name: "contact additional_attributes (merged in SQL)",
    field: "additional_attributes",
    setup: async () => {
      const w = await createWorld();
      const c = await createContact(w.account.id);
      return {
        send: (value) =>
          api(`/api/v1/accounts/${w.account.id}/contacts/${c.id}`, {
            method: "PUT",
            token: w.admin.token,
            body: { additional_attributes: value },
          }),
        stored: () => row("SELECT additional_attributes FROM contacts WHERE id = ?", c.id),
      };
    },
  },
  {
    name: "conversation additional_attributes",
    field: "additional_attributes",
    setup: async () => {
      const w = await createWorld();
      const c = await createConversation(w.account.id, w.inbox.id);
      return {
        send: (value) =>
          api(`/api/v1/accounts/${w.account.id}/conversations/${c.displayId}`, {
            method: "PATCH",
            token: w.admin.token,
            body: { additional_attributes: value },
          }),
        stored: () => row("SELECT additional_attributes FROM conversations WHERE id = ?", c.id),
      };
    },
  },
  {
    name: "profile ui_settings",
    field: "ui_settings",
    setup: async () => {
      const w = await createWorld();
      return {
        send: (value) =>
          api("/api/v1/profile", {
            method: "PUT",
            token: w.agent.token,
            body: { ui_settings: value },
          }),
        stored: () => row("SELECT ui_settings FROM users WHERE id = ?", w.agent.id),
      };
    },
  },
  {
    name: "platform account custom_attributes",
    field: "custom_attributes",
    setup: async () => {
      const app = await createPlatformApp();
      const made = await api("/platform/api/v1/accounts", {
        token: app.token,
        body: { name: "Merged Co" },
      });
      const id = made.body.id as number;
      return {
        send: (value) =>
          api(`/platform/api/v1/accounts/${id}`, {
            method: "PATCH",
            token: app.token,
            body: { custom_attributes: value },
          }),
        stored: () => row("SELECT custom_attributes FROM accounts WHERE id = ?", id),
      };
    },
  },
  {
    name: "platform user custom_attributes",
    field: "custom_attributes",
    setup: async () => {
      const app = await createPlatformApp();
      const made = await api("/platform/api/v1/users", {
        token: app.token,
        body: { name: "Merged", email: `${unique("merged")}@example.com`.toLowerCase() },
      });
      const id = made.body.id as number;
      return {
        send: (value) =>
          api(`/platform/api/v1/users/${id}`, {
            method: "PATCH",
            token: app.token,
            body: { custom_attributes: value },
          }),
        stored: () => row("SELECT custom_attributes FROM users WHERE id = ?", id),
      };
    },
  },
];

describe("merged JSON fields are bounded on the merged value", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const { send, stored } = await c.setup();
      const first = await send(keys("a"));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const before = await stored();
      // Within the bounds on its own, past them once merged: refused, nothing written.
      const second = expectError(await send(keys("b")), 422, "validation_failed");
      expect(second.details).toEqual([
        { path: c.field, message: expect.stringContaining("once merged") },
      ]);
      expect(second.error).toContain("at most 200 per object");
      expect(await stored()).toBe(before);
      // Replacing existing keys does not grow it: accepted.
      expect((await send({ a0: "again" })).status).toBe(200);
    });
  }
});
