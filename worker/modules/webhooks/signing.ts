import { hmacSha256Hex } from "../../lib/hmac";

const encoder = new TextEncoder();

const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

async function hmac(key: Uint8Array, message: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message));
}

/**
 * Standard Webhooks' key: the base64 after `whsec_`. Bot secrets and inbox tokens are not in
 * that form; they are used as the stock verifier reads them (base64 when they decode as such,
 * else their bytes), so `new Webhook(secret)` verifies every kind of receiver.
 */
export function standardKey(secret: string): Uint8Array {
  const encoded = secret.startsWith("whsec_") ? secret.slice(6) : secret;
  if (encoded.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  }
  return encoder.encode(secret);
}

/**
 * The headers of one attempt. X-Service-Signature is the spec's: "sha256=" + lowercase hex
 * HMAC-SHA256 keyed with the secret string as shown, over "{timestamp}.{body}". webhook-* are
 * Standard Webhooks': "v1," + base64 HMAC-SHA256 over "{id}.{timestamp}.{body}". Both sign
 * the exact bytes sent. Without a secret (automation targets) only the ids go out.
 */
export async function deliveryHeaders(
  secret: string | null,
  deliveryId: string,
  timestamp: number,
  body: string,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    "user-agent": "Parley-Webhooks/1.0",
    "x-service-timestamp": String(timestamp),
    "x-service-delivery": deliveryId,
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestamp),
  };
  if (secret === null) {
    return headers;
  }
  const [spec, standard] = await Promise.all([
    hmacSha256Hex(secret, `${timestamp}.${body}`),
    hmac(standardKey(secret), `${deliveryId}.${timestamp}.${body}`),
  ]);
  headers["x-service-signature"] = `sha256=${spec}`;
  headers["webhook-signature"] = `v1,${toBase64(standard)}`;
  return headers;
}
