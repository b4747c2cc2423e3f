import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { countingDb } from "../../support/counting-db";
import { addInboxMember, createAgent, createWorld } from "../../support/factories";
import { createConversationIn } from "../../support/factories-conversations";
import { apiSettled } from "../../support/settled";

/**
 * A conversation route finds its conversation and checks the caller sees its inbox in one D1
 * round trip (deployed, each is a trip to D1): the hot path of an agent's post.
 */
describe("an agent's conversation lookup", () => {
  it("reads the conversation and the caller's access in one D1 call, and still hides other inboxes", async () => {
    const w = await createWorld();
    await addInboxMember(w.inbox.id, w.agent.id);
    const { conversation } = await createConversationIn(w.account.id, w.inbox.id);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.displayId}`;
    // Warm: the token and the account scope are cached after the first request.
    expect((await apiSettled(base, { token: w.agent.token })).status).toBe(200);
    const counting = countingDb(env);
    const posted = await apiSettled(`${base}/messages`, {
      token: w.agent.token,
      body: { content: "one trip" },
      env: counting.env,
    });
    expect(posted.status).toBe(200);
    expect(counting.counts.calls).toBe(1);
    const outsider = await createAgent(w.account.id);
    const hidden = await apiSettled(`${base}/messages`, {
      token: outsider.token,
      body: { content: "not mine" },
    });
    expect(hidden.status).toBe(404);
  });
});
