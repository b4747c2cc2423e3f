const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * A random base58 token, like Rails' has_secure_token (24 characters by default).
 * Rejection sampling keeps every character equally likely.
 */
export function secureToken(length = 24): string {
  const out: string[] = [];
  const limit = 256 - (256 % ALPHABET.length);
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit && out.length < length) {
        out.push(ALPHABET[b % ALPHABET.length] as string);
      }
    }
  }
  return out.join("");
}

/** Base64 of `n` random bytes (webhook and bot secrets). */
export function randomBase64(n = 32): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return btoa(String.fromCharCode(...bytes));
}
