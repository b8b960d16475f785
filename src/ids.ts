import { randomFillSync } from "node:crypto";

export type IdPrefix = "ten" | "key" | "off" | "orq" | "ord" | "pas" | "evt" | "whd" | "wtx" | "req" | "sli" | "seg" | "ase" | "job" | "doc";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const RANDOM_CHARS = 16;

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time: a `randomBytes(16)` call per id
 * cost ~5 µs, and every request takes one (its request id).
 */
const randomPool = Buffer.allocUnsafe(RANDOM_CHARS * 256);
let randomPoolOffset = randomPool.length;

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
  if (randomPoolOffset + RANDOM_CHARS > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  let tail = "";
  for (let i = randomPoolOffset; i < randomPoolOffset + RANDOM_CHARS; i++) tail += CROCKFORD[randomPool[i]! % 32];
  randomPoolOffset += RANDOM_CHARS;
  return `${prefix}_${time}${tail}`;
}
