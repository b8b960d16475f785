import { hash, randomBytes, timingSafeEqual } from "node:crypto";

export type SecretKind = "owner" | "sandbox" | "live";

const PREFIX: Record<SecretKind, string> = { owner: "sk_owner_", sandbox: "sk_test_", live: "sk_live_" };
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new key secret: its kind's prefix and 32 base62 characters (~190 bits of entropy). */
export function generateSecret(kind: SecretKind): string {
  let body = "";
  // 248 = 4 × 62: bytes above it are dropped so every character is equally likely.
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += BASE62[byte % 62];
    }
  }
  return PREFIX[kind] + body;
}

/**
 * SHA-256 of the secret: what is stored and what the cache is keyed by. A slow password hash
 * would buy nothing here, because secrets are long random strings nobody can guess. Every request
 * hashes its key: the one-shot `hash` takes a third of a Hash object's time.
 */
export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

/** Equal hashes, compared in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The part of a secret safe to show in lists so a person can tell keys apart. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, secret.indexOf("_", 3) + 5);
}
