/** Bindings and vars of the Worker, as declared in wrangler.toml. */
export type Bindings = {
  DB: D1Database;
  SERVICE_VERSION?: string;
};
