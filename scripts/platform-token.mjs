// `npm run --silent platform:token [-- --remote] [-- --name NAME]`: creates a platform app and
// prints its token alone on the last line. Works while `npm start` is running (same SQLite file).

import { secureToken } from "./lib/tokens.mjs";
import { d1, q } from "./lib/wrangler.mjs";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const nameIndex = args.indexOf("--name");
const name = nameIndex >= 0 ? args[nameIndex + 1] : `platform app ${new Date().toISOString()}`;

try {
  const token = secureToken();
  d1(
    [
      `INSERT INTO platform_apps (name) VALUES (${q(name)})`,
      `INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('PlatformApp', last_insert_rowid(), ${q(token)})`,
    ].join(";\n"),
    { remote },
  );
  process.stdout.write(`${token}\n`);
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.stderr.write(
    remote ? "" : "Hint: run `npm start` once first so the local database has its tables.\n",
  );
  process.exit(1);
}
