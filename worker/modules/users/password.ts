/**
 * Password hashes: PBKDF2-SHA256 through WebCrypto, stored as
 * `pbkdf2_sha256$<iterations>$<salt b64>$<hash b64>` so the cost can be raised later.
 * 100,000 iterations is the most Workers' WebCrypto allows.
 */
const ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, ITERATIONS);
  return `pbkdf2_sha256$${ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Constant-time check of a password against a stored hash; unknown formats never match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, rounds, salt, expected] = stored.split("$");
  const iterations = Number(rounds);
  if (scheme !== "pbkdf2_sha256" || !salt || !expected || !Number.isInteger(iterations)) {
    return false;
  }
  const actual = await derive(password, fromBase64(salt), iterations);
  const wanted = fromBase64(expected);
  if (actual.length !== wanted.length) {
    return false;
  }
  let diff = 0;
  for (let i = 0; i < actual.length; i++) {
    diff |= (actual[i] as number) ^ (wanted[i] as number);
  }
  return diff === 0;
}
