import { derivedId } from "../ids";
import { convertFromUsdMinor } from "../money/exchange-rates";
import { offerSupplier, type StoredOffer } from "./offer-payload";
import { ancillaryPrices } from "../connectors/simulated/ancillary-prices";
import { supplierCapabilities } from "../gateway/contract/capabilities";

export interface AvailableService {
  id: string;
  type: "baggage" | "seat";
  totalAmount: number;
  currency: string;
  maximumQuantity: number;
  passengerIds: string[];
  segmentIds: string[];
}

const LONG_HAUL_KM = 3000;

/**
 * Optional extras the offer can be booked with (`return_available_services=true`), derived
 * from the stored offer alone, at its supplier's prices (supplier/ancillary-prices.ts): up to two
 * extra checked bags per passenger and slice (the network: USD 35, 60 long-haul), and a seat
 * selection per seated passenger and segment (the network: USD 12 in economy, 20 in premium
 * economy; included in business and first, so not offered there). None from a supplier that
 * sells no services through us (Duffel: docs/duffel.md#not-covered-yet).
 */
export function availableServices(offer: StoredOffer): AvailableService[] {
  const supplier = offerSupplier(offer.payload).id;
  if (!supplierCapabilities(supplier).has("add_services")) return [];
  const price = (usdMinor: number) => convertFromUsdMinor(usdMinor, offer.currency);
  const prices = ancillaryPrices(supplier);
  const services: AvailableService[] = [];
  for (const passenger of offer.payload.passengers) {
    for (const slice of offer.payload.slices) {
      const distance = slice.segments.reduce((sum, segment) => sum + segment.distanceKm, 0);
      services.push({
        id: derivedId("ase", offer.id, "baggage", passenger.id, slice.id),
        type: "baggage",
        totalAmount: price(distance >= LONG_HAUL_KM ? prices.checkedBag.longHaul : prices.checkedBag.shortHaul),
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
