import { randomBytes, randomInt } from "node:crypto";

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
