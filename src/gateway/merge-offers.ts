import type { CabinClass, CarrierRef, SupplierOffer } from "./contract/supplier";
import type { SupplierBatch } from "./fan-out";
import type { SupplierRef } from "./registry";


/** A supplier's offer with its source named, and its comparison key (`supplierOfferKey`). */
export interface SourcedOffer {
  supplier: SupplierRef;
  offer: SupplierOffer;
  comparisonKey: string;
}

/** What the comparison key reads of a segment: the flight (carrier, number, local departure date) and the cabin. */
interface ComparedSegment {
  marketingCarrier: CarrierRef;
  marketingCarrierFlightNumber: string;
  /** Local departure time (`2026-03-07T08:35:00`): its date is the flight's date. */
  departingAt: string;
  cabinClass: CabinClass;
}

/**
 * The same flights in the same cabins give the same key whatever the source: each segment's
 * carrier, flight number, local departure date and cabin, slices apart (`ZA102@2026-03-07:economy|…`).
 */
export function comparisonKey(slices: ReadonlyArray<{ segments: readonly ComparedSegment[] }>): string {
  return slices
    .map((slice) => slice.segments.map((s) => `${s.marketingCarrier.iataCode}${s.marketingCarrierFlightNumber}@${s.departingAt.slice(0, 10)}:${s.cabinClass}`).join(","))
    .join("|");
}

/** `comparisonKey` of a supplier's offer, whose segments name the local time `departingAtLocal` (written out: it runs for every offer of every search). */
export function supplierOfferKey(offer: SupplierOffer): string {
  let key = "";
  for (let s = 0; s < offer.slices.length; s++) {
    if (s > 0) key += "|";
    const segments = offer.slices[s]!.segments;
    for (let g = 0; g < segments.length; g++) {
      const segment = segments[g]!;
      key += `${g > 0 ? "," : ""}${segment.marketingCarrier.iataCode}${segment.marketingCarrierFlightNumber}@${segment.departingAtLocal.slice(0, 10)}:${segment.cabinClass}`;
    }
  }
  return key;
}

/**
 * The offers of every supplier that answered, as one list: the same flights with the same fare
 * brand offered twice are kept once, the cheaper (a tie goes to the supplier listed first, as
 * `batches` are); ordered by total amount, then by duration (every slice's together).
 */
export function mergeOffers(batches: readonly SupplierBatch[]): SourcedOffer[] {
  const kept = new Map<string, { sourced: SourcedOffer; rank: number }>();
  let rank = 0;
  for (const batch of batches) {
    const supplier = { id: batch.entry.id, name: batch.entry.name };
    for (const offer of batch.offers) {
      const comparison = supplierOfferKey(offer);
      const key = `${comparison}#${offer.fareBrandName}`;
      const previous = kept.get(key);
      if (!previous || offer.totalAmount < previous.sourced.offer.totalAmount) kept.set(key, { sourced: { supplier, offer, comparisonKey: comparison }, rank: previous?.rank ?? rank });
      rank += 1;
    }
  }
  const duration = (offer: SupplierOffer) => offer.slices.reduce((sum, slice) => sum + slice.durationMinutes, 0);
  return [...kept.values()]
    .sort((a, b) => a.sourced.offer.totalAmount - b.sourced.offer.totalAmount || duration(a.sourced.offer) - duration(b.sourced.offer) || a.rank - b.rank)
    .map((entry) => entry.sourced);
}
