import { derivedId } from "../../ids";
import { convertFromUsdMinor } from "../../money/exchange-rates";
import type { OfferView } from "../../gateway/contract/offers";
import type { AvailableService } from "../../gateway/contract/seat-maps";
import { isLongHaul } from "./long-haul";

/** What a simulated supplier asks for extras sold with an offer, in US cents. */
export interface ExtrasPrices {
  /** An extra checked bag per passenger and slice, short-haul and long-haul (long-haul.ts). */
  checkedBag: { shortHaul: number; longHaul: number };
  /** A seat selection per seated passenger and segment, by cabin; a cabin absent includes it. */
  seatSelection: { economy: number; premium_economy?: number };
}

/** The network's extras: a bag USD 35, 60 long-haul; a seat USD 12 in economy, 20 in premium economy, included above. */
export const NETWORK_EXTRAS: ExtrasPrices = { checkedBag: { shortHaul: 3500, longHaul: 6000 }, seatSelection: { economy: 1200, premium_economy: 2000 } };

/** Low-cost carriers sell what their fares leave out: every bag, and a seat of one's choice, at their own prices. */
export const LOW_COST_EXTRAS: ExtrasPrices = { checkedBag: { shortHaul: 2900, longHaul: 4900 }, seatSelection: { economy: 800 } };

/**
 * Optional extras an offer can be booked with (`return_available_services=true`), derived from
 * the stored offer alone, at `prices` converted to the offer's currency: up to two extra checked
 * bags per passenger and slice, and a seat selection per seated passenger and segment in a cabin
 * that charges for it.
 */
export function availableExtras(offer: OfferView, prices: ExtrasPrices): AvailableService[] {
  const price = (usdMinor: number) => convertFromUsdMinor(usdMinor, offer.currency);
  const services: AvailableService[] = [];
  for (const passenger of offer.payload.passengers) {
    for (const slice of offer.payload.slices) {
      const longHaul = isLongHaul(slice.segments.map((segment) => segment.distanceKm));
      services.push({
        id: derivedId("ase", offer.id, "baggage", passenger.id, slice.id),
        type: "baggage",
        totalAmount: price(longHaul ? prices.checkedBag.longHaul : prices.checkedBag.shortHaul),
        currency: offer.currency,
        maximumQuantity: 2,
        passengerIds: [passenger.id],
        segmentIds: slice.segments.map((segment) => segment.id),
      });
      if (passenger.type === "infant_without_seat") continue;
      for (const segment of slice.segments) {
        const seatPrice = segment.cabinClass === "economy" || segment.cabinClass === "premium_economy" ? prices.seatSelection[segment.cabinClass] : undefined;
        if (seatPrice === undefined) continue;
        services.push({
          id: derivedId("ase", offer.id, "seat", passenger.id, segment.id),
          type: "seat",
          totalAmount: price(seatPrice),
          currency: offer.currency,
          maximumQuantity: 1,
          passengerIds: [passenger.id],
          segmentIds: [segment.id],
        });
      }
    }
  }
  return services;
}
