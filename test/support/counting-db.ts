import type { Bindings } from "../../worker/env";

/**
 * The env with a DB that counts the D1 calls made through it (a batch is one call, its statements
 * counted): what one invocation asks of D1. Durable Objects use their own env, not this one.
 */
export function countingDb(base: Bindings) {
  const counts = { calls: 0, statements: 0 };
  const watch = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const s = stmt as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const name of ["all", "run", "first", "raw"]) {
      const original = s[name] as (...a: unknown[]) => unknown;
      s[name] = (...a: unknown[]) => {
        counts.calls++;
        counts.statements++;
        return original.apply(stmt, a);
      };
    }
    const bind = s.bind as (...a: unknown[]) => D1PreparedStatement;
    s.bind = (...a: unknown[]) => watch(bind.apply(stmt, a));
    return stmt;
  };
  const DB = {
    prepare: (query: string) => watch(base.DB.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      counts.calls++;
      counts.statements += statements.length;
      return base.DB.batch(statements);
    },
    exec: (query: string) => {
      counts.calls++;
      return base.DB.exec(query);
    },
    dump: () => base.DB.dump(),
    withSession: () => {
      throw new Error("not used here");
    },
  } as unknown as D1Database;
  return { env: { ...base, DB }, counts };
}
