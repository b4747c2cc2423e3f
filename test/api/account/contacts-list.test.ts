import { describe, expect, it } from "vitest";
import { createWorld } from "../../support/factories";
import { addContactInbox, createContact, tagContact } from "../../support/factories-contacts";
import { api, expectError } from "../../support/http";

const contacts = (accountId: number) => `/api/v1/accounts/${accountId}/contacts`;

/** Five listed contacts and an anonymous visitor who never shows up. */
async function dataSet() {
  const world = await createWorld();
  const id = world.account.id;
  const make = (values: Parameters<typeof createContact>[1]) => createContact(id, values);
  const people = {
    anna: await make({
      name: "Anna",
      email: "anna@x.io",
      phoneNumber: "+100",
      lastActivityAt: 300,
      createdAt: 10,
    }),
    ben: await make({ name: "Ben", email: null, phoneNumber: "+300", createdAt: 20 }),
    cleo: await make({ name: "Cleo", email: "cleo@x.io", lastActivityAt: 100, createdAt: 30 }),
    dave: await make({
      name: "Dave",
      email: null,
      identifier: "ext-d",
      lastActivityAt: 200,
      createdAt: 40,
    }),
    visitor: await make({ name: "Visitor", email: null, createdAt: 45 }),
    eve: await make({ name: "Eve", email: "eve@x.io", phoneNumber: "+200", createdAt: 50 }),
  };
  const names = new Map(Object.entries(people).map(([k, v]) => [v.id, k]));
  const list = async (query: string) => {
    const res = await api(`${contacts(id)}${query}`, { token: world.agent.token });
    expect(res.status).toBe(200);
    return {
      body: res.body,
      names: res.body.payload.map((c: { id: number }) => names.get(c.id)),
    };
  };
  return { world, people, list };
}

describe("GET contacts (E1): order", () => {
  it("defaults to last_activity_at descending, never-active last (newest first)", async () => {
    const { list } = await dataSet();
    const { body, names } = await list("");
    expect(names).toEqual(["anna", "dave", "cleo", "eve", "ben"]);
    expect(body.meta).toEqual({ count: 5, current_page: 1 });
  });

  it("sorts by every key both ways, nulls last", async () => {
    const { list } = await dataSet();
    const expected: Record<string, string[]> = {
      name: ["anna", "ben", "cleo", "dave", "eve"],
      "-name": ["eve", "dave", "cleo", "ben", "anna"],
      email: ["anna", "cleo", "eve", "ben", "dave"],
      "-email": ["eve", "cleo", "anna", "dave", "ben"],
      phone_number: ["anna", "eve", "ben", "cleo", "dave"],
      "-phone_number": ["ben", "eve", "anna", "dave", "cleo"],
      last_activity_at: ["cleo", "dave", "anna", "ben", "eve"],
      "-last_activity_at": ["anna", "dave", "cleo", "eve", "ben"],
      created_at: ["anna", "ben", "cleo", "dave", "eve"],
      "-created_at": ["eve", "dave", "cleo", "ben", "anna"],
    };
    for (const [sort, names] of Object.entries(expected)) {
      expect({ sort, names: (await list(`?sort=${sort}`)).names }).toEqual({ sort, names });
    }
  });

  it("answers 422 for an unknown sort key", async () => {
    const { world } = await dataSet();
    for (const sort of ["city", "--name", "name;DROP", "-"]) {
      expectError(
        await api(`${contacts(world.account.id)}?sort=${encodeURIComponent(sort)}`, {
          token: world.agent.token,
        }),
        422,
      );
    }
  });
});

describe("GET contacts (E1): records, paging and labels", () => {
  it("renders each record with the spec's keys and its contact_inboxes", async () => {
    const { world, people, list } = await dataSet();
    await addContactInbox(people.anna.id, world.inbox.id, "anna-src");
    const { body } = await list("?sort=name");
    expect(body.payload[0]).toEqual({
      id: people.anna.id,
      name: "Anna",
      email: "anna@x.io",
      phone_number: "+100",
      identifier: null,
      blocked: false,
      thumbnail: "",
      availability_status: "offline",
      additional_attributes: { city: "", country: "", country_code: "", created_at_ip: "" },
      custom_attributes: {},
      last_activity_at: 300,
      created_at: 10,
      contact_inboxes: [
        {
          source_id: "anna-src",
          inbox: {
            id: world.inbox.id,
            avatar_url: "",
            channel_id: world.inbox.id,
            name: world.inbox.name,
            channel_type: "Channel::Api",
            provider: null,
          },
        },
      ],
    });
    expect(body.payload[1].contact_inboxes).toEqual([]);
  });

  it("pages by 15 with the total count and echoes current_page as sent", async () => {
    const world = await createWorld();
    for (let i = 0; i < 20; i++) {
      await createContact(world.account.id, { createdAt: 1000 + i });
    }
    await createContact(world.account.id, { email: null });
    const page = (q: string) =>
      api(`${contacts(world.account.id)}${q}`, { token: world.admin.token });
    const first = await page("?sort=created_at");
    expect(first.body.meta).toEqual({ count: 20, current_page: 1 });
    expect(first.body.payload.map((c: { created_at: number }) => c.created_at)).toEqual(
      Array.from({ length: 15 }, (_, i) => 1000 + i),
    );
    const second = await page("?sort=created_at&page=2");
    expect(second.body.meta).toEqual({ count: 20, current_page: "2" });
    expect(second.body.payload.map((c: { created_at: number }) => c.created_at)).toEqual([
      1015, 1016, 1017, 1018, 1019,
    ]);
    const beyond = await page("?page=9");
    expect(beyond.body).toEqual({ meta: { count: 20, current_page: "9" }, payload: [] });
    // Chatwoot reads page.to_i and serves page 1 below 1; the page served is echoed.
    for (const [sent, served] of [
      ["0", 1],
      ["-1", 1],
      ["abc", 1],
      ["1.5", 1],
      ["2x", 2],
    ]) {
      expect((await page(`?page=${sent}`)).body.meta.current_page).toBe(served);
    }
    expectError(await page("?page=100001"), 422);
  });

  it("keeps contacts tagged with any of labels[] (or repeated labels)", async () => {
    const { people, list } = await dataSet();
    await tagContact(people.anna.id, ["vip"]);
    await tagContact(people.cleo.id, ["lead", "vip"]);
    await tagContact(people.eve.id, ["other"]);
    await tagContact(people.visitor.id, ["vip"]);
    expect((await list("?sort=name&labels[]=vip&labels[]=lead")).names).toEqual(["anna", "cleo"]);
    expect((await list("?sort=name&labels=LEAD")).names).toEqual(["cleo"]);
    const tagged = await list("?labels=vip&labels=other&sort=-name");
    expect(tagged.names).toEqual(["eve", "cleo", "anna"]);
    expect(tagged.body.meta.count).toBe(3);
    expect((await list("?labels[]=nobody")).body).toEqual({
      meta: { count: 0, current_page: 1 },
      payload: [],
    });
  });
});

describe("GET contacts/search", () => {
  it("matches name, email and phone (contains, any case) or identifier (equal)", async () => {
    const { list } = await dataSet();
    expect((await list("/search?q=ANN")).names).toEqual(["anna"]);
    expect((await list("/search?q=X.IO&sort=name")).names).toEqual(["anna", "cleo", "eve"]);
    expect((await list(`/search?q=${encodeURIComponent("+30")}`)).names).toEqual(["ben"]);
    expect((await list("/search?q=ext-d")).names).toEqual(["dave"]);
    expect((await list("/search?q=ext")).names).toEqual([]);
    // Anonymous visitors are not listed, so not found either.
    expect((await list("/search?q=visitor")).body).toEqual({
      meta: { count: 0, current_page: 1 },
      payload: [],
    });
    expect((await list(`/search?q=${encodeURIComponent("%")}`)).names).toEqual([]);
  });

  it("answers 422 without q, with Chatwoot's message", async () => {
    const { world } = await dataSet();
    for (const q of ["", "?q=", "?q=%20%20"]) {
      const err = expectError(
        await api(`${contacts(world.account.id)}/search${q}`, { token: world.agent.token }),
        422,
      );
      expect(err.error).toContain("Specify search string with parameter q");
    }
  });

  it("pages and counts search results", async () => {
    const world = await createWorld();
    for (let i = 0; i < 17; i++) {
      await createContact(world.account.id, { name: `Match ${i}` });
    }
    await createContact(world.account.id, { name: "Other" });
    const res = await api(`${contacts(world.account.id)}/search?q=match&page=2`, {
      token: world.agent.token,
    });
    expect(res.body.meta).toEqual({ count: 17, current_page: "2" });
    expect(res.body.payload).toHaveLength(2);
  });
});

describe("GET /contacts sort=name", () => {
  it("orders names case-insensitively, as people read them", async () => {
    const world = await createWorld();
    for (const name of ["bob", "Alice", "dave", "Carol"]) {
      await createContact(world.account.id, { name, email: `${name.toLowerCase()}@case.test` });
    }
    const res = await api(`${contacts(world.account.id)}?sort=name`, { token: world.admin.token });
    expect(res.body.payload.map((c: { name: string }) => c.name)).toEqual([
      "Alice",
      "bob",
      "Carol",
      "dave",
    ]);
    const desc = await api(`${contacts(world.account.id)}?sort=-name`, {
      token: world.admin.token,
    });
    expect(desc.body.payload.map((c: { name: string }) => c.name)).toEqual([
      "dave",
      "Carol",
      "bob",
      "Alice",
    ]);
  });
});
