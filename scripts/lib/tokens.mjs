import { pbkdf2Sync, randomBytes, randomInt } from "node:crypto";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Same alphabet and length as worker/lib/ids.ts secureToken(). */
export function secureToken(length = 24) {
  let out = "";
  for (let i = 0; i < length; i++) {
    out += ALPHABET[randomInt(ALPHABET.length)];
  }
  return out;
}

export const randomBase64 = (n = 32) => randomBytes(n).toString("base64");

/**
 * A password hash in the Worker's format (worker/modules/users/password.ts):
 * `pbkdf2_sha256$<iterations>$<salt b64>$<hash b64>`, PBKDF2-SHA256, 16-byte salt, 32-byte hash.
 */
export function passwordHash(password, iterations = 100_000) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  return `pbkdf2_sha256$${iterations}$${salt.toString("base64")}$${hash.toString("base64")}`;
}
