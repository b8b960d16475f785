/**
 * A search names its offers, and their slices and segments, after its offer request: an offer
 * id is the request's id (`orq_` + 26 characters, src/ids.ts) with `off_` in front and the
 * offer's position in two base-32 digits behind; a slice id adds the slice's position, a segment
 * id the slice's and the segment's. So an offer is found by its id through its search's one row,
 * none of these ids is stored, and each is unique because the request's is.
 */
const DIGITS = "0123456789abcdefghjkmnpqrstvwxyz";
const REQUEST_PREFIX = "orq_";
/** `orq_` and the 26 characters of a new id. */
const REQUEST_ID_LENGTH = REQUEST_PREFIX.length + 26;
const OFFER_ID_LENGTH = REQUEST_ID_LENGTH + 2;

/** A search names at most this many offers (two base-32 digits). */
export const MAX_OFFER_POSITIONS = 32 * 32;

const digit = (value: number) => DIGITS[value]!;

export function offerIdOf(requestId: string, index: number): string {
  return `off_${requestId.slice(REQUEST_PREFIX.length)}${digit(index >> 5)}${digit(index & 31)}`;
}

export function sliceIdOf(offerId: string, sliceIndex: number): string {
  return `sli_${offerId.slice(4)}${digit(sliceIndex)}`;
}

export function segmentIdOf(offerId: string, sliceIndex: number, segmentIndex: number): string {
  return `seg_${offerId.slice(4)}${digit(sliceIndex)}${digit(segmentIndex)}`;
}

/** The search an offer id names and the offer's position in it, or null for text that is not an offer id. */
export function offerAddress(offerId: string): { requestId: string; index: number } | null {
  if (offerId.length !== OFFER_ID_LENGTH || !offerId.startsWith("off_")) return null;
  for (let i = 4; i < OFFER_ID_LENGTH; i++) if (DIGITS.indexOf(offerId[i]!) < 0) return null;
  const index = DIGITS.indexOf(offerId[OFFER_ID_LENGTH - 2]!) * 32 + DIGITS.indexOf(offerId[OFFER_ID_LENGTH - 1]!);
  return { requestId: `${REQUEST_PREFIX}${offerId.slice(4, OFFER_ID_LENGTH - 2)}`, index };
}
