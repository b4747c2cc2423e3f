import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccount, createInbox } from "../../support/factories";
import { createPublicContact, createPublicWorld, pub } from "../../support/factories-public";
import { expectError } from "../../support/http";

describe("GET /public/api/v1/inboxes/{inbox_identifier}", () => {
  it("shows an API inbox's public settings and none of its secrets", async () => {
    const w = await createPublicWorld({
      name: "Support",
      timezone: "Europe/Berlin",
      hmacMandatory: true,
      greetingEnabled: true,
      greetingMessage: "Hi there",
      workingHoursEnabled: true,
      workingHours: [
        {
          day_of_week: 1,
          closed_all_day: false,
          open_all_day: false,
          open_hour: 9,
          open_minutes: 0,
          close_hour: 17,
          close_minutes: 30,
        },
      ],
      webhookUrl: "https://hooks.example.com/parley",
    });
    const res = await pub(w.base);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      identifier: w.inbox.inboxIdentifier,
      name: "Support",
      timezone: "Europe/Berlin",
      working_hours: w.inbox.workingHours,
      working_hours_enabled: true,
      csat_survey_enabled: false,
      greeting_enabled: true,
      greeting_message: "Hi there",
      welcome_title: null,
      welcome_tagline: null,
      widget_color: "#1f93ff",
      enable_email_collect: true,
      pre_chat_form_enabled: false,
      pre_chat_form_options: {},
      reply_time: "in_a_few_minutes",
      out_of_office_message: null,
      identity_validation_enabled: true,
      channel_type: "Channel::Api",
      locale: null,
      available_agents: [],
      portal: null,
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(w.inbox.hmacToken);
    expect(text).not.toContain("hooks.example.com");
  });

  it("serves web-widget inboxes too, with their widget settings", async () => {
    const w = await createPublicWorld({
      channelType: "Channel::WebWidget",
      widgetColor: "#ff0000",
      welcomeTitle: "Hello",
      welcomeTagline: "We reply fast",
      preChatFormEnabled: true,
      preChatFormOptions: { pre_chat_message: "Who are you?" },
      locale: "de",
    });
    const res = await pub(w.base);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      channel_type: "Channel::WebWidget",
      widget_color: "#ff0000",
      welcome_title: "Hello",
      welcome_tagline: "We reply fast",
      pre_chat_form_enabled: true,
      pre_chat_form_options: { pre_chat_message: "Who are you?" },
      locale: "de",
      identity_validation_enabled: false,
    });
  });

  it("answers 404 for an unknown inbox on every public path", async () => {
    const unknown = "no-such-inbox-identifier";
    expectError(await pub(unknown), 404, "not_found");
    expectError(await pub(`${unknown}/contacts`, { method: "POST", body: {} }), 404, "not_found");
    expectError(await pub(`${unknown}/contacts/x`), 404, "not_found");
    expectError(await pub(`${unknown}/contacts/x/conversations`), 404, "not_found");
    expectError(await pub(`${unknown}/contacts/x/conversations/1/messages`), 404, "not_found");
  });

  it("routes a trailing slash like the bare path", async () => {
    const w = await createPublicWorld();
    expect((await pub(`${w.base}/`)).status).toBe(200);
  });

  it("answers 401 account_suspended for an inbox of a suspended account", async () => {
    const account = await createAccount({ status: "suspended" });
    const inbox = await createInbox(account.id);
    expectError(await pub(inbox.inboxIdentifier), 401, "account_suspended");
  });

  it("ignores a stray api_access_token, valid or not", async () => {
    const w = await createPublicWorld();
    const headers = { api_access_token: "not-a-token" };
    expect((await pub(w.base, { headers })).status).toBe(200);
    const admin = { api_access_token: w.admin.token };
    const contact = await pub(`${w.base}/contacts`, { method: "POST", body: {}, headers: admin });
    expect(contact.status).toBe(200);
    const path = `${w.base}/contacts/${contact.body.source_id}/conversations`;
    expect((await pub(path, { method: "POST", headers })).status).toBe(200);
  });
});

describe("CORS", () => {
  const origin = "https://customer-site.example";

  it("answers a preflight from any origin", async () => {
    const w = await createPublicWorld();
    const res = await SELF.fetch(`http://parley.test/public/api/v1/inboxes/${w.base}/contacts`, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "content-type",
    );
  });

  it("sets the CORS header on successes and on errors", async () => {
    const w = await createPublicWorld();
    const contact = await createPublicContact(w.base);
    const headers = { Origin: origin };
    const ok = await pub(`${w.base}/contacts/${contact.source_id}`, { headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    const missing = await pub(`${w.base}/contacts/nope`, { headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
    const invalid = await pub(`${w.base}/contacts`, {
      method: "POST",
      body: { email: "not an email" },
      headers,
    });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("access-control-allow-origin")).toBe("*");
  });
});
