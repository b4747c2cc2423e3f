import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld, unique } from "../../support/factories";
import { createLabel } from "../../support/factories-teams";
import { api, expectError } from "../../support/http";

const labels = (accountId: number) => `/api/v1/accounts/${accountId}/labels`;

describe("GET /api/v1/accounts/{account_id}/labels", () => {
  it("returns {payload: [label]} with only the account's labels", async () => {
    const { account, agent } = await createWorld();
    const first = await createLabel(account.id, { description: "Money matters", color: "#ff0000" });
    const second = await createLabel(account.id, { showOnSidebar: false });
    const other = await createWorld();
    await createLabel(other.account.id);

    const res = await api(labels(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      payload: [
        {
          id: first.id,
          title: first.title,
          description: "Money matters",
          color: "#ff0000",
          show_on_sidebar: true,
        },
        {
          id: second.id,
          title: second.title,
          description: null,
          color: "#1f93ff",
          show_on_sidebar: false,
        },
      ],
    });
  });

  it("answers an empty payload when there are no labels", async () => {
    const { account, admin } = await createWorld();
    expect((await api(labels(account.id), { token: admin.token })).body).toEqual({ payload: [] });
  });
});

describe("GET /api/v1/accounts/{account_id}/labels/{id}", () => {
  it("returns the bare label to an agent", async () => {
    const { account, agent } = await createWorld();
    const label = await createLabel(account.id, { description: "d" });
    const res = await api(`${labels(account.id)}/${label.id}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: label.id,
      title: label.title,
      description: "d",
      color: "#1f93ff",
      show_on_sidebar: true,
    });
  });

  it("answers 404 for unknown, malformed and other accounts' label ids", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createLabel(other.account.id);
    for (const id of [String(foreign.id), "999999999", "abc", "1e3"]) {
      expectError(
        await api(`${labels(account.id)}/${id}`, { token: admin.token }),
        404,
        "not_found",
      );
    }
  });
});

describe("POST /api/v1/accounts/{account_id}/labels", () => {
  it("creates a label with the title lower-cased and Chatwoot's default colour", async () => {
    const { account, admin } = await createWorld();
    const title = `Billing_${unique("x").replace(/-/g, "_")}`;
    const res = await api(labels(account.id), {
      method: "POST",
      token: admin.token,
      body: { title, ignored: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: title.toLowerCase(),
      description: null,
      color: "#1f93ff",
      show_on_sidebar: true,
    });
    const shown = await api(`${labels(account.id)}/${res.body.id}`, { token: admin.token });
    expect(shown.body).toEqual(res.body);
  });

  it("accepts the Chatwoot-wrapped body {label: {...}} with every field", async () => {
    const { account, admin } = await createWorld();
    const title = unique("vip");
    const res = await api(labels(account.id), {
      method: "POST",
      token: admin.token,
      body: {
        label: { title, description: "Important", color: "#00AA11", show_on_sidebar: false },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title,
      description: "Important",
      color: "#00AA11",
      show_on_sidebar: false,
    });
  });

  it("accepts unicode letters and digits", async () => {
    const { account, admin } = await createWorld();
    const res = await api(labels(account.id), {
      method: "POST",
      token: admin.token,
      body: { title: "Ünïcode-42" },
    });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("ünïcode-42");
  });

  it("answers 422 for titles with spaces or punctuation, and creates nothing", async () => {
    const { account, admin } = await createWorld();
    for (const title of ["two words", "dot.ted", "", "slash/ed", " lead"]) {
      const err = expectError(
        await api(labels(account.id), { method: "POST", token: admin.token, body: { title } }),
        422,
      );
      expect(err.details.map((d) => d.path)).toEqual(["title"]);
    }
    expect((await api(labels(account.id), { token: admin.token })).body).toEqual({ payload: [] });
  });

  it("answers 422 listing each invalid field", async () => {
    const { account, admin } = await createWorld();
    const res = await api(labels(account.id), {
      method: "POST",
      token: admin.token,
      body: { description: 3, color: "red", show_on_sidebar: "yes" },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "color",
      "description",
      "show_on_sidebar",
      "title",
    ]);
  });

  it("answers 422 'Title has already been taken' for a duplicate in any letter case", async () => {
    const { account, admin } = await createWorld();
    const label = await createLabel(account.id);
    const res = await api(labels(account.id), {
      method: "POST",
      token: admin.token,
      body: { title: label.title.toUpperCase() },
    });
    const err = expectError(res, 422);
    expect(err.error).toBe("Title has already been taken");
    expect(err.details).toEqual([{ path: "title", message: "has already been taken" }]);
    expect((await api(labels(account.id), { token: admin.token })).body.payload).toHaveLength(1);
  });

  it("allows the same title in another account", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const label = await createLabel(other.account.id);
    const res = await api(labels(account.id), {
      method: "POST",
      token: admin.token,
      body: { title: label.title },
    });
    expect(res.status).toBe(200);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/labels/{id}", () => {
  it("updates only the fields sent", async () => {
    const { account, admin } = await createWorld();
    const label = await createLabel(account.id, { description: "keep" });
    const res = await api(`${labels(account.id)}/${label.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { label: { color: "#123456", show_on_sidebar: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: label.id,
      title: label.title,
      description: "keep",
      color: "#123456",
      show_on_sidebar: false,
    });
  });

  it("renames with the title lower-cased and keeps its own title without error", async () => {
    const { account, admin } = await createWorld();
    const label = await createLabel(account.id);
    const same = await api(`${labels(account.id)}/${label.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { title: label.title },
    });
    expect(same.status).toBe(200);
    const title = unique("Renamed");
    const res = await api(`${labels(account.id)}/${label.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { title, description: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: title.toLowerCase(), description: null });
  });

  it("answers 422 for another label's title or a bad field, and changes nothing", async () => {
    const { account, admin } = await createWorld();
    const first = await createLabel(account.id);
    const second = await createLabel(account.id);
    const taken = await api(`${labels(account.id)}/${second.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { title: first.title, color: "#000000" },
    });
    expect(expectError(taken, 422).error).toBe("Title has already been taken");
    const bad = await api(`${labels(account.id)}/${second.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { title: "has space", color: "#12345" },
    });
    expect(
      expectError(bad, 422)
        .details.map((d) => d.path)
        .sort(),
    ).toEqual(["color", "title"]);
    const after = await api(`${labels(account.id)}/${second.id}`, { token: admin.token });
    expect(after.body).toMatchObject({ title: second.title, color: "#1f93ff" });
  });

  it("answers 404 for other accounts' and malformed ids, and leaves the label alone", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createLabel(other.account.id);
    expectError(
      await api(`${labels(account.id)}/${foreign.id}`, {
        method: "PATCH",
        token: admin.token,
        body: { title: "mine" },
      }),
      404,
    );
    expectError(
      await api(`${labels(account.id)}/nope`, {
        method: "PATCH",
        token: admin.token,
        body: { title: "mine" },
      }),
      404,
    );
    const after = await api(`${labels(other.account.id)}/${foreign.id}`, {
      token: other.admin.token,
    });
    expect(after.body.title).toBe(foreign.title);
  });
});

describe("DELETE /api/v1/accounts/{account_id}/labels/{id}", () => {
  it("deletes the label and answers {}", async () => {
    const { account, admin } = await createWorld();
    const label = await createLabel(account.id);
    const res = await api(`${labels(account.id)}/${label.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await api(`${labels(account.id)}/${label.id}`, { token: admin.token }), 404);
  });

  it("answers 404 for unknown, malformed and other accounts' labels", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createLabel(other.account.id);
    for (const id of [String(foreign.id), "999999999", "-3"]) {
      expectError(
        await api(`${labels(account.id)}/${id}`, { method: "DELETE", token: admin.token }),
        404,
      );
    }
    expect(
      (await api(`${labels(other.account.id)}/${foreign.id}`, { token: other.admin.token })).status,
    ).toBe(200);
  });
});

describeAuthMatrix("GET labels", { method: "GET", path: (w) => labels(w.account.id) });

describeAuthMatrix("GET label", {
  method: "GET",
  path: async (w) => `${labels(w.account.id)}/${(await createLabel(w.account.id)).id}`,
});

describeAuthMatrix("POST labels", {
  method: "POST",
  path: (w) => labels(w.account.id),
  body: { title: "matrix" },
  adminOnly: true,
});

describeAuthMatrix("PATCH label", {
  method: "PATCH",
  path: async (w) => `${labels(w.account.id)}/${(await createLabel(w.account.id)).id}`,
  body: { color: "#000000" },
  adminOnly: true,
});

describeAuthMatrix("DELETE label", {
  method: "DELETE",
  path: async (w) => `${labels(w.account.id)}/${(await createLabel(w.account.id)).id}`,
  adminOnly: true,
});
