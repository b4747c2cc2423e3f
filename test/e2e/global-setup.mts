// One `wrangler dev` (fresh database) and one host page server for all browser test files.
import type { TestProject } from "vitest/node";
import { startHost, startParley } from "./harness.mts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Parley origin (`wrangler dev`), e.g. http://127.0.0.1:41234. */
    parleyBase: string;
    /** The customer's page embedding the widget, on another site (localhost). */
    hostUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const parley = await startParley("e2e-widget");
  const host = await startHost(parley.base);
  project.provide("parleyBase", parley.base);
  project.provide("hostUrl", host.url);
  return async () => {
    await host.stop();
    await parley.stop();
  };
}
