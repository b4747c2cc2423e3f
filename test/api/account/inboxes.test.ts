import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createInbox, createWorld } from "../../support/factories";
import { findBotLink, inboxMemberIds } from "../../support/factories-inboxes";
import { api, expectError } from "../../support/http";

const inboxes = (accountId: number) => `/api/v1/accounts/${accountId}/inboxes`;

const weekday = (day: number) => ({
  day_of_week: day,
  closed_all_day: false,
  open_all_day: false,
  open_hour: 9,
  open_minutes: 0,
  close_hour: 17,
  close_minutes: 0,
});
const closed = (day: number) => ({
  day_of_week: day,
  closed_all_day: true,
  open_all_day: false,
  open_hour: null,
  open_minutes: null,
  close_hour: null,
  close_minutes: null,
});
const DEFAULT_HOURS = [
  closed(0),
  weekday(1),
  weekday(2),
  weekday(3),
  weekday(4),
  weekday(5),
  closed(6),
];

describe("POST /api/v1/accounts/{account_id}/inboxes", () => {
  it("creates an API inbox and returns every field, secrets included for administrators", async () => {
    const { account, admin } = await createWorld();
    const res = await api(inboxes(account.id), {
      token: admin.token,
      body: {
        name: "API inbox",
        greeting_enabled: true,
        greeting_message: "Hi",
        timezone: "Europe/Berlin",
        channel: {
          type: "api",
          webhook_url: "https://hooks.example.com/in",
          hmac_mandatory: true,
          additional_attributes: { source: "crm" },
        },
      },
    });
    expect(res.status).toBe(200);
    const id = res.body.id;
    expect(res.body).toEqual({
      id,
      account_id: account.id,
      avatar_url: "",
      channel_id: id,
      name: "API inbox",
      channel_type: "Channel::Api",
      greeting_enabled: true,
      greeting_message: "Hi",
      working_hours_enabled: false,
      enable_email_collect: true,
      csat_survey_enabled: false,
      enable_auto_assignment: true,
      out_of_office_message: null,
      working_hours: DEFAULT_HOURS,
      timezone: "Europe/Berlin",
      callback_webhook_url: null,
      allow_messages_after_resolved: true,
      auto_assignment_config: { max_assignment_limit: null },
      lock_to_single_conversation: false,
      sender_name_type: "friendly",
      business_name: null,
      webhook_url: "https://hooks.example.com/in",
      inbox_identifier: expect.stringMatching(/^\w{24}$/),
      additional_attributes: { source: "crm" },
      hmac_mandatory: true,
      website_url: null,
      widget_color: "#1f93ff",
      website_token: null,
      web_widget_script: null,
      welcome_title: null,
      welcome_tagline: null,
      reply_time: "in_a_few_minutes",
      pre_chat_form_enabled: false,
      pre_chat_form_options: {},
      hmac_token: expect.stringMatching(/^\w{24}$/),
      secret: res.body.hmac_token,
    });
    expect(res.body.hmac_token).not.toBe(res.body.inbox_identifier);
    const shown = await api(`${inboxes(account.id)}/${id}`, { token: admin.token });
    expect(shown.body).toEqual(res.body);
  });

  it("creates a web widget inbox with its embed script", async () => {
    const { account, admin } = await createWorld();
    const res = await api(inboxes(account.id), {
      token: admin.token,
      body: {
        name: "Website",
        business_name: "Acme",
        working_hours_enabled: true,
        working_hours: [{ day_of_week: 0, open_all_day: true }],
        channel: {
          type: "web_widget",
          website_url: "https://acme.test",
          widget_color: "#AA00ff",
          welcome_title: "Hello",
          welcome_tagline: "We reply fast",
          reply_time: "in_a_day",
          pre_chat_form_enabled: true,
          pre_chat_form_options: { pre_chat_message: "Who are you?" },
        },
      },
    });
    expect(res.status).toBe(200);
    const identifier = res.body.inbox_identifier;
    expect(res.body).toMatchObject({
      channel_type: "Channel::WebWidget",
      business_name: "Acme",
      website_url: "https://acme.test",
      widget_color: "#AA00ff",
      welcome_title: "Hello",
      welcome_tagline: "We reply fast",
      reply_time: "in_a_day",
      pre_chat_form_enabled: true,
      pre_chat_form_options: { pre_chat_message: "Who are you?" },
      website_token: identifier,
      web_widget_script: `<script src="http://parley.test/widget.js" data-inbox="${identifier}" data-color="#AA00ff" async></script>`,
      webhook_url: null,
      working_hours_enabled: true,
    });
    expect(res.body.working_hours[0]).toEqual({
      day_of_week: 0,
      closed_all_day: false,
      open_all_day: true,
      open_hour: 0,
      open_minutes: 0,
      close_hour: 23,
      close_minutes: 59,
    });
    expect(res.body.working_hours.slice(1)).toEqual(DEFAULT_HOURS.slice(1));
  });

  it("accepts channel fields sent flat", async () => {
    const { account, admin } = await createWorld();
    const res = await api(inboxes(account.id), {
      token: admin.token,
      body: { name: "Flat", webhook_url: "http://hooks.test/x", channel: { type: "api" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.webhook_url).toBe("http://hooks.test/x");
  });

  it("requires website_url for a web widget", async () => {
    const { account, admin } = await createWorld();
    const err = expectError(
      await api(inboxes(account.id), {
        token: admin.token,
        body: { name: "W", channel: { type: "web_widget" } },
      }),
      422,
    );
    expect(err.details).toEqual([
      { path: "channel.website_url", message: "is required for a web widget" },
    ]);
  });

  it("answers 422 listing every invalid field, creating nothing", async () => {
    const { account, admin } = await createWorld();
    const res = await api(inboxes(account.id), {
      token: admin.token,
      body: {
        name: "",
        timezone: "Mars/Olympus_Mons",
        avatar_url: "javascript:alert(1)",
        working_hours: [
          { day_of_week: 1, open_hour: 18, open_minutes: 0, close_hour: 9, close_minutes: 0 },
        ],
        channel: { type: "email", webhook_url: "ftp://files.test/x", widget_color: "red" },
      },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "avatar_url",
      "channel.type",
      "channel.webhook_url",
      "channel.widget_color",
      "name",
      "timezone",
      "working_hours.0",
    ]);
    const relative = expectError(
      await api(inboxes(account.id), {
        token: admin.token,
        body: { name: "x", channel: { type: "api", webhook_url: "/hooks" } },
      }),
      422,
    );
    expect(relative.details.map((d) => d.path)).toEqual(["channel.webhook_url"]);
    expectError(await api(inboxes(account.id), { token: admin.token, body: { name: "x" } }), 422);
    const list = await api(inboxes(account.id), { token: admin.token });
    expect(list.body.payload).toHaveLength(1);
  });
});

describe("GET /api/v1/accounts/{account_id}/inboxes", () => {
  it("lists every inbox to administrators, by name", async () => {
    const { account, admin, inbox } = await createWorld();
    const first = await createInbox(account.id, { name: "aaa first" });
    await createWorld(); // another account's inbox stays out
    const res = await api(inboxes(account.id), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.payload.map((i: { id: number }) => i.id)).toEqual([first.id, inbox.id]);
    expect(res.body.payload[0].hmac_token).toBe(first.hmacToken);
  });

  it("lists only an agent's own inboxes, without secrets", async () => {
    const { account, agent, inbox } = await createWorld();
    const mine = await createInbox(account.id);
    await addInboxMember(mine.id, agent.id);
    const res = await api(inboxes(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.payload.map((i: { id: number }) => i.id)).toEqual([mine.id]);
    expect(res.body.payload[0]).not.toHaveProperty("hmac_token");
    expect(res.body.payload[0]).not.toHaveProperty("secret");
    expect(res.body.payload.map((i: { id: number }) => i.id)).not.toContain(inbox.id);
  });
});

describe("GET /api/v1/accounts/{account_id}/inboxes/{id}", () => {
  it("shows a member's inbox to an agent and hides the others", async () => {
    const { account, agent, inbox } = await createWorld();
    expectError(await api(`${inboxes(account.id)}/${inbox.id}`, { token: agent.token }), 404);
    await addInboxMember(inbox.id, agent.id);
    const res = await api(`${inboxes(account.id)}/${inbox.id}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(inbox.id);
    expect(res.body.inbox_identifier).toBe(inbox.inboxIdentifier);
    expect(res.body).not.toHaveProperty("hmac_token");
  });

  it("answers 404 for unknown, other-account and malformed ids", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    expectError(await api(`${inboxes(account.id)}/999999999`, { token: admin.token }), 404);
    expectError(await api(`${inboxes(account.id)}/${other.inbox.id}`, { token: admin.token }), 404);
    expectError(await api(`${inboxes(account.id)}/abc`, { token: admin.token }), 404);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/inboxes/{id}", () => {
  it("changes only the fields sent, channel fields nested or flat", async () => {
    const { account, admin } = await createWorld();
    const created = await api(inboxes(account.id), {
      token: admin.token,
      body: { name: "Site", channel: { type: "web_widget", website_url: "https://a.test" } },
    });
    const path = `${inboxes(account.id)}/${created.body.id}`;
    const res = await api(path, {
      method: "PATCH",
      token: admin.token,
      body: {
        name: "Site 2",
        enable_auto_assignment: false,
        out_of_office_message: "Away",
        working_hours: [
          { day_of_week: 6, open_hour: 10, open_minutes: 30, close_hour: 12, close_minutes: 0 },
        ],
        widget_color: "#000000",
        channel: { type: "api", welcome_title: "Yo", webhook_url: "" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created.body,
      name: "Site 2",
      enable_auto_assignment: false,
      out_of_office_message: "Away",
      widget_color: "#000000",
      // The embed snippet carries the new colour (the launcher's first paint).
      web_widget_script: created.body.web_widget_script.replace(
        /data-color="#[0-9a-fA-F]{6}"/,
        'data-color="#000000"',
      ),
      welcome_title: "Yo",
      working_hours: [
        ...created.body.working_hours.slice(0, 6),
        { ...weekday(6), open_hour: 10, open_minutes: 30, close_hour: 12 },
      ],
    });
    expect(res.body.channel_type).toBe("Channel::WebWidget");
  });

  it("answers 422 to invalid values and changes nothing", async () => {
    const { account, admin, inbox } = await createWorld();
    const path = `${inboxes(account.id)}/${inbox.id}`;
    const err = expectError(
      await api(path, {
        method: "PATCH",
        token: admin.token,
        body: {
          name: "ok",
          timezone: "Nowhere/Land",
          greeting_enabled: "yes",
          working_hours: [{ day_of_week: 7, closed_all_day: true }],
          channel: { website_url: "", reply_time: "someday" },
        },
      }),
      422,
    );
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "channel.reply_time",
      "channel.website_url",
      "greeting_enabled",
      "timezone",
      "working_hours.0.day_of_week",
    ]);
    const after = await api(path, { token: admin.token });
    expect(after.body.name).toBe(inbox.name);
  });

  it("answers 404 for another account's inbox", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    expectError(
      await api(`${inboxes(account.id)}/${other.inbox.id}`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "stolen" },
      }),
      404,
    );
  });
});

describe("DELETE /api/v1/accounts/{account_id}/inboxes/{id}", () => {
  it("deletes the inbox with its members and bot link", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    await addInboxMember(inbox.id, agent.id);
    const res = await api(`${inboxes(account.id)}/${inbox.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await api(`${inboxes(account.id)}/${inbox.id}`, { token: admin.token }), 404);
    expect(await inboxMemberIds(inbox.id)).toEqual([]);
    expect(await findBotLink(inbox.id)).toBeUndefined();
  });

  it("answers 404 for another account's inbox and leaves it", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const path = `${inboxes(account.id)}/${other.inbox.id}`;
    expectError(await api(path, { method: "DELETE", token: admin.token }), 404);
    expect(
      (await api(`${inboxes(other.account.id)}/${other.inbox.id}`, { token: other.admin.token }))
        .status,
    ).toBe(200);
  });
});

describeAuthMatrix("GET inboxes", { method: "GET", path: (w) => inboxes(w.account.id) });
describeAuthMatrix("GET inbox", {
  method: "GET",
  path: (w) => `${inboxes(w.account.id)}/${w.inbox.id}`,
});
describeAuthMatrix("POST inboxes", {
  method: "POST",
  path: (w) => inboxes(w.account.id),
  body: { name: "M", channel: { type: "api" } },
  adminOnly: true,
});
describeAuthMatrix("PATCH inbox", {
  method: "PATCH",
  path: (w) => `${inboxes(w.account.id)}/${w.inbox.id}`,
  body: { name: "M" },
  adminOnly: true,
});
describeAuthMatrix("DELETE inbox", {
  method: "DELETE",
  path: (w) => `${inboxes(w.account.id)}/${w.inbox.id}`,
  adminOnly: true,
});
