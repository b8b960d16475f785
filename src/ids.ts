import { hash, randomFillSync } from "node:crypto";
import { clock } from "./clock";

export type IdPrefix = "ten" | "key" | "off" | "orq" | "ord" | "pas" | "evt" | "whd" | "wtx" | "sli" | "seg" | "ase" | "job" | "doc" | "wat" | "pay" | "ore" | "ocr" | "oco" | "oce" | "osa" | "aic" | "whe" | "prc" | "scs" | "spc" | "spa" | "boq" | "prr" | "aud" | "acr";

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
const TIME_CHARS = 10;
const SEQUENCE_CHARS = 4;
const RANDOM_CHARS = 12;
const ID_CHARS = TIME_CHARS + SEQUENCE_CHARS + RANDOM_CHARS;
/**
 * 20 bits of sequence; each millisecond's starts below half of it, so half a million ids fit in a
 * millisecond (past that, with a clock set back for long, the id's time moves on a millisecond).
 */
const SEQUENCE_LIMIT = 32 ** SEQUENCE_CHARS;

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time: a `randomBytes(16)` call per id
 * cost ~5 µs, and every request takes one (its request id).
 */
const randomPool = Buffer.allocUnsafe(4096);
let randomPoolOffset = randomPool.length;

function takeRandomBytes(count: number): Buffer {
  if (randomPoolOffset + count > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  randomPoolOffset += count;
  return randomPool.subarray(randomPoolOffset - count, randomPoolOffset);
}

/** `count` random base-32 digits (a byte modulo 32 is uniform). */
function randomDigits(count: number): string {
  let digits = "";
  for (const byte of takeRandomBytes(count)) digits += CROCKFORD[byte % 32];
  return digits;
}

function base32(value: number, chars: number): string {
  let text = "";
  let remaining = value;
  for (let i = 0; i < chars; i++) {
    text = CROCKFORD[remaining % 32] + text;
    remaining = Math.floor(remaining / 32);
  }
  return text;
}

/** The millisecond and sequence of the last id made, for ids made within one millisecond. */
let lastTime = -1;
let lastSequence = 0;

/**
 * A new opaque id such as `ord_01jd3k…`: 10 characters of millisecond time, 4 of sequence and 12
 * random ones (Crockford base32), so ids created later sort later, never collide, and none can be
 * guessed from another. Within one process they strictly increase: an id made in the same
 * millisecond as the last one (or with an earlier `now`) takes the last one's time and the next
 * sequence number (each millisecond's sequence starts at a random point), so rows written at one
 * instant list in the order written. The 60 random bits are drawn afresh for every id.
 */
export function newId(prefix: IdPrefix, now = clock.nowMs()): string {
  if (now > lastTime) {
    lastTime = now;
    lastSequence = takeRandomBytes(3).readUIntLE(0, 3) % (SEQUENCE_LIMIT / 2);
  } else if (lastSequence + 1 < SEQUENCE_LIMIT) {
    lastSequence += 1;
  } else {
    lastTime += 1;
    lastSequence = 0;
  }
  return `${prefix}_${base32(lastTime, TIME_CHARS)}${base32(lastSequence, SEQUENCE_CHARS)}${randomDigits(RANDOM_CHARS)}`;
}

/**
 * An id whose time is exactly `timeMs`, for a record its id dates (a search: src/search/offer-ids.ts).
 * Unlike `newId` it is not bumped past the last id made: its sequence digits are random too, so
 * two made in one millisecond sort by chance and never collide.
 */
export function datedId(prefix: IdPrefix, timeMs: number): string {
  return `${prefix}_${base32(timeMs, TIME_CHARS)}${randomDigits(SEQUENCE_CHARS + RANDOM_CHARS)}`;
}

/**
 * The millisecond `newId` or `datedId` wrote into `id` (its 10 time digits after the prefix), or
 * null when `id` is not shaped like one of their ids.
 */
export function idTimeMs(id: string): number | null {
  const underscore = id.indexOf("_");
  if (underscore < 1 || id.length < underscore + 1 + ID_CHARS) return null;
  let time = 0;
  for (let i = underscore + 1; i <= underscore + TIME_CHARS; i++) {
    const digit = CROCKFORD.indexOf(id[i]!);
    if (digit < 0) return null;
    time = time * 32 + digit;
  }
  return time;
}

/**
 * A request id (`req_` and 26 random characters) for a request that brought none: random
 * throughout, with no time or sequence, so the `x-request-id` header tells nothing of the ids the
 * process makes around it.
 */
export function newRequestId(): string {
  return `req_${randomDigits(ID_CHARS)}`;
}
