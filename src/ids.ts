import { randomBytes } from "node:crypto";

export type IdPrefix = "ten" | "key" | "off" | "orq" | "ord" | "pas" | "evt" | "whd" | "wtx" | "req" | "sli" | "seg" | "ase";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * A new opaque id such as `ten_01jd3k…`: 10 characters of millisecond time then 16 random
 * ones (Crockford base32, like a ULID), so ids created later sort later and never collide.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  let time = "";
  let remaining = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[remaining % 32] + time;
    remaining = Math.floor(remaining / 32);
  }
  const random = randomBytes(16);
  let tail = "";
  for (const byte of random) tail += CROCKFORD[byte % 32];
  return `${prefix}_${time}${tail}`;
}
