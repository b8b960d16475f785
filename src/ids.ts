import { hash, randomFillSync } from "node:crypto";
import { clock } from "./clock";

export type IdPrefix = "ten" | "key" | "off" | "orq" | "ord" | "pas" | "evt" | "whd" | "wtx" | "req" | "sli" | "seg" | "ase" | "job" | "doc" | "wat" | "pay" | "ore" | "ocr" | "oco" | "oce" | "osa" | "aic";

/** Prefixes of ids derived from what they name (derivedId), never stored as rows of their own. */
export type DerivedIdPrefix = "ase" | "sea";

/**
 * An id fixed by the parts it names, e.g. a seat service by offer, passenger, segment and seat:
 * the same on every read, in every process, so a later request can name it and be resolved by
 * deriving the candidates again. 96 bits of SHA-256: no collisions among one offer's services.
 */
export function derivedId(prefix: DerivedIdPrefix, ...parts: string[]): string {
  // One-shot `hash` (the same digest): ~5× cheaper than createHash, and a booking derives an id per seat of its flights.
  return `${prefix}_${hash("sha256", parts.join(":"), "hex").slice(0, 24)}`;
}

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const RANDOM_CHARS = 16;

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time: a `randomBytes(16)` call per id
 * cost ~5 µs, and every request takes one (its request id).
 */
const randomPool = Buffer.allocUnsafe(RANDOM_CHARS * 256);
let randomPoolOffset = randomPool.length;

/** The time and random digits of the last id made, for ids made within one millisecond. */
let lastTime = -1;
const lastTail = new Uint8Array(RANDOM_CHARS);

/**
 * A new opaque id such as `ten_01jd3k…`: 10 characters of millisecond time then 16 random
 * ones (Crockford base32, like a ULID), so ids created later sort later and never collide.
 * Within one process they strictly increase, as monotonic ULIDs do: an id made in the same
 * millisecond as the last one (or with an earlier `now`) takes the last one's time and its
 * random part plus one. So two rows written in one transaction list in the order written.
 */
export function newId(prefix: IdPrefix, now = clock.nowMs()): string {
  if (now > lastTime) {
    lastTime = now;
    drawRandomDigits(lastTail);
  } else {
    increment(lastTail);
  }
  return composeId(prefix, lastTime, lastTail);
}

/**
 * An id whose time is exactly `timeMs`, for a record its id dates (a search: src/search/offer-ids.ts).
 * Unlike `newId` it is not bumped past the last id made, so two made in one millisecond sort by
 * their random digits; they never collide.
 */
export function datedId(prefix: IdPrefix, timeMs: number): string {
  const tail = new Uint8Array(RANDOM_CHARS);
  drawRandomDigits(tail);
  return composeId(prefix, timeMs, tail);
}

/** Fills `digits` with random base-32 digits from the pool. */
function drawRandomDigits(digits: Uint8Array): void {
  if (randomPoolOffset + RANDOM_CHARS > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  for (let i = 0; i < RANDOM_CHARS; i++) digits[i] = randomPool[randomPoolOffset + i]! % 32;
  randomPoolOffset += RANDOM_CHARS;
}

function composeId(prefix: IdPrefix, timeMs: number, tail: Uint8Array): string {
  let time = "";
  let remaining = timeMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[remaining % 32] + time;
    remaining = Math.floor(remaining / 32);
  }
  let random = "";
  for (const digit of tail) random += CROCKFORD[digit];
  return `${prefix}_${time}${random}`;
}

/**
 * The millisecond `newId` or `datedId` wrote into `id` (its 10 time digits after the prefix), or
 * null when `id` is not shaped like one of their ids.
 */
export function idTimeMs(id: string): number | null {
  const underscore = id.indexOf("_");
  if (underscore < 1 || id.length < underscore + 1 + 10 + RANDOM_CHARS) return null;
  let time = 0;
  for (let i = underscore + 1; i <= underscore + 10; i++) {
    const digit = CROCKFORD.indexOf(id[i]!);
    if (digit < 0) return null;
    time = time * 32 + digit;
  }
  return time;
}

/** Adds one to base-32 digits (80 random bits never run out within a millisecond). */
function increment(digits: Uint8Array): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i] = digits[i]! + 1;
      return;
    }
    digits[i] = 0;
  }
}
