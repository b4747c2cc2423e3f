import type { AccountEnv } from "../../http/context";
import { createRouter } from "../../http/router";

// TODO(#2): routes arrive with the module.
export const inboxMemberAccountRoutes = createRouter<AccountEnv>();
