import type { AccountEnv } from "../../http/context";
import { createRouter } from "../../http/router";
import { articleAccountRoutes } from "./routes.articles.account";
import { categoryAccountRoutes } from "./routes.categories.account";
import { feedbackAccountRoutes } from "./routes.feedback.account";
import { portalAccountRoutes } from "./routes.portals.account";

/** The help center's account API: portals, their categories and articles (Chatwoot's routes). */
export const helpCenterAccountRoutes = createRouter<AccountEnv>()
  .route("/", portalAccountRoutes)
  .route("/", categoryAccountRoutes)
  .route("/", articleAccountRoutes)
  .route("/", feedbackAccountRoutes);
