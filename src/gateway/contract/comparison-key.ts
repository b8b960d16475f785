import type { CabinClass, CarrierRef } from "./air";
import type { SupplierOffer } from "./offers";

/**
 * The one rule of which offers are the same flights, whatever their supplier: an offer's
 * comparison key (docs/gateway.md#search-fan-out), by which the merge of a search's offers keeps
 * one of each and every offer shows `comparison_key`.
 */

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
