import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

const build = (d1: D1Database) => drizzle(d1, { schema });

/**
 * One drizzle instance per D1 binding: building one walks the whole schema for its relational
 * config (`extractTablesRelationalConfig`), which cost ~10% of the server's CPU on the realtime
 * path when every room call, writer transaction and queue event built its own. The instance holds
 * no per-request state, so sharing it is safe.
 */
const built = new WeakMap<D1Database, ReturnType<typeof build>>();

export const createDb = (d1: D1Database) => {
  let db = built.get(d1);
  if (!db) {
    db = build(d1);
    built.set(d1, db);
  }
  return db;
};

export type Db = ReturnType<typeof createDb>;
