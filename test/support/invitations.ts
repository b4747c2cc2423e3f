import { expect } from "vitest";
import { createWorld, unique } from "./factories";
import { api } from "./http";
import type { recordMail } from "./mail";

/** An agent added through the account API, with the link mailed to them (read from `mail`). */
export async function invitedAgent(mail: ReturnType<typeof recordMail>) {
  const world = await createWorld();
  const email = `${unique("agent")}@example.com`;
  const res = await api(`/api/v1/accounts/${world.account.id}/agents`, {
    token: world.admin.token,
    body: { name: "New Agent", email },
  });
  expect(res.status).toBe(200);
  return { ...world, email, id: res.body.id as number, link: mail.linkTo(email) };
}
