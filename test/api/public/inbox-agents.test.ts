// The public inbox record's agents and help-center portal: what a visitor may see, and only that.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import {
  addInboxMember,
  addToAccount,
  createAccount,
  createInbox,
  createUser,
  db,
  unique,
} from "../../support/factories";
import { createPublicWorld, pub } from "../../support/factories-public";

async function member(
  accountId: number,
  inboxId: number,
  values: Partial<typeof t.users.$inferInsert>,
  availability: "online" | "busy" | "offline" = "offline",
) {
  const user = await createUser(values);
  await addToAccount(accountId, user.id, "agent");
  // Online with a socket open (live presence): the feed would have set connected_at.
  const connectedAt = availability === "online" ? Math.floor(Date.now() / 1000) : null;
  await db()
    .update(t.accountUsers)
    .set({ availability, connectedAt })
    .where(eq(t.accountUsers.userId, user.id));
  await addInboxMember(inboxId, user.id);
  return user;
}

const portal = (accountId: number, values: Partial<typeof t.portals.$inferInsert> = {}) =>
  db()
    .insert(t.portals)
    .values({ accountId, name: "Help", slug: unique("help"), ...values })
    .returning()
    .get();

describe("GET /public/api/v1/inboxes/{inbox_identifier}: available_agents", () => {
  it("lists the inbox's agents online first with exactly name, avatar_url and presence", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const ann = await member(w.account.id, w.inbox.id, { name: "Ann Lee" }, "offline");
    await member(
      w.account.id,
      w.inbox.id,
      { name: "Robert Bo", displayName: "Bo", avatarUrl: "https://cdn.example/bo.png" },
      "online",
    );
    await member(w.account.id, w.inbox.id, { name: "Cy" }, "busy");
    const res = await pub(w.base);
    expect(res.status).toBe(200);
    expect(res.body.available_agents).toEqual([
      { name: "Bo", avatar_url: "https://cdn.example/bo.png", availability_status: "online" },
      { name: "Cy", avatar_url: null, availability_status: "busy" },
      { name: "Ann Lee", avatar_url: null, availability_status: "offline" },
    ]);
    for (const agent of res.body.available_agents) {
      expect(Object.keys(agent).sort()).toEqual(["availability_status", "avatar_url", "name"]);
    }
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(ann.email);
    expect(text).not.toContain("@example.com");
  });

  it("shows at most 5 agents", async () => {
    const w = await createPublicWorld();
    for (let i = 0; i < 7; i++) {
      await member(w.account.id, w.inbox.id, { name: `Agent ${i}` });
    }
    expect((await pub(w.base)).body.available_agents).toHaveLength(5);
  });

  it("shows nothing of other inboxes' agents, nor of members who left the account", async () => {
    const w = await createPublicWorld();
    const other = await createInbox(w.account.id);
    await member(w.account.id, other.id, { name: "Other inbox" }, "online");
    const elsewhere = await createAccount();
    const elsewhereInbox = await createInbox(elsewhere.id);
    await member(elsewhere.id, elsewhereInbox.id, { name: "Other account" }, "online");
    // A member row whose user has no place in this inbox's account (left it, or never had one).
    const stranger = await createUser({ name: "Stranger" });
    await addToAccount(elsewhere.id, stranger.id, "agent");
    await addInboxMember(w.inbox.id, stranger.id);
    const res = await pub(w.base);
    expect(res.body.available_agents).toEqual([]);
  });
});

describe("GET /public/api/v1/inboxes/{inbox_identifier}: portal", () => {
  it("carries the linked portal's slug and the locales it offers (with a published article) only", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const linked = await portal(w.account.id, {
      inboxId: w.inbox.id,
      defaultLocale: "fr",
      allowedLocales: ["fr", "de", "pt_BR", "es"],
      customDomain: unique("help").concat(".example.com"),
      headerText: "secret-ish header",
    });
    // No article yet: the default locale alone, as the portal's pages offer it.
    expect((await pub(w.base)).body.portal).toEqual({
      slug: linked.slug,
      default_locale: "fr",
      allowed_locales: ["fr"],
    });
    const article = (locale: string, status: number) =>
      db()
        .insert(t.helpArticles)
        .values({
          accountId: w.account.id,
          portalId: linked.id,
          locale,
          title: "T",
          slug: unique("a"),
          status,
        })
        .run();
    await article("pt_BR", 1);
    await article("fr", 1);
    await article("de", 0); // a draft offers nothing
    await article("it", 1); // not an allowed locale
    expect((await pub(w.base)).body.portal).toEqual({
      slug: linked.slug,
      default_locale: "fr",
      allowed_locales: ["fr", "pt_BR"],
    });
  });

  it("is null without a link, for an archived portal, and for another inbox's portal", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    expect((await pub(w.base)).body.portal).toBeNull();
    await portal(w.account.id, { inboxId: w.inbox.id, archived: true });
    const other = await createInbox(w.account.id, { channelType: "Channel::WebWidget" });
    await portal(w.account.id, { inboxId: other.id });
    expect((await pub(w.base)).body.portal).toBeNull();
  });
});
