// One `wrangler dev` (fresh database) and one host page server for all browser test files.
import type { TestProject } from "vitest/node";
import { startDoh, startHost, startParley } from "./harness.mts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Parley origin (`wrangler dev`), e.g. http://127.0.0.1:41234. */
    parleyBase: string;
    /** The customer's page embedding the widget, on another site (localhost). */
    hostUrl: string;
    /** The fake DNS-over-HTTPS resolver Parley asks (harness.mts startDoh). */
    dohBase: string;
  }
}

export default async function setup(project: TestProject) {
  const doh = await startDoh();
  const parley = await startParley("e2e-widget", {
    DOH_RESOLVER_URL: `${doh.base}/dns-query`,
  });
  const host = await startHost(parley.base);
  project.provide("parleyBase", parley.base);
  project.provide("hostUrl", host.url);
  project.provide("dohBase", doh.base);
  return async () => {
    await host.stop();
    await parley.stop();
    await doh.stop();
  };
}
