import type { OneTimeLinkRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import type { LinkFacts } from "./pages";
import { linkPeople } from "./queries.pages";

export const linkFacts = (deps: Deps, link: OneTimeLinkRow): Promise<LinkFacts> =>
  linkPeople(deps.db, link.userId, link.accountId);
