import { describe, expect, it } from "vitest";
import { availableExtras, LOW_COST_EXTRAS, NETWORK_EXTRAS } from "../../src/connectors/simulated/extras";
import { isLongHaul } from "../../src/connectors/simulated/long-haul";
import { baggageAllowances } from "../../src/connectors/simulated/timetable/baggage";
import type { OfferView } from "../../src/gateway/contract/offers";

/**
 * "Long-haul", one rule (src/connectors/simulated/long-haul.ts, docs/simulated-airline.md): a
 * slice is long-haul when one of its flights flies more than 3,000 km. The free baggage of a
 * slice and the price of a bag bought for it read the same rule, so a slice of two 1,600 km
 * flights is short-haul for both (the bag's price once summed the slice's flights).
 */

/** An offer of one adult on one slice of flights of these lengths, in economy on the network. */
function offerFlying(...distancesKm: number[]): OfferView {
  return {
    id: "off_long_haul",
    tenantId: "ten_long_haul",
    currency: "USD",
    payload: {
      passengers: [{ id: "p1", type: "adult" }],
      slices: [
        {
          id: "sli_1",
          segments: distancesKm.map((distanceKm, index) => ({
            id: `seg_${index}`,
            flightKey: `ZA${index}@2030-01-01:AAA-BBB`,
            marketingCarrier: { iataCode: "ZA", name: "Zephyr Air" },
            aircraft: { iataCode: "320", name: "Airbus A320" },
            cabinClass: "economy",
            distanceKm,
            seatsLeft: 9,
          })),
        },
      ],
    },
  };
}

const bagPrice = (offer: OfferView, prices = NETWORK_EXTRAS) => availableExtras(offer, prices).find((service) => service.type === "baggage")!.totalAmount;

describe("long-haul", () => {
  it("is a slice with a flight of more than 3,000 km; connections do not add up", () => {
    expect(isLongHaul([3_001])).toBe(true);
    expect(isLongHaul([500, 3_100])).toBe(true);
    expect(isLongHaul([3_000])).toBe(false);
    expect(isLongHaul([1_600, 1_600])).toBe(false);
  });

  it("prices a bag of two 1,600 km flights as short-haul, as their free baggage is: one rule for both", () => {
    const connecting = offerFlying(1_600, 1_600);
    expect(bagPrice(connecting)).toBe(NETWORK_EXTRAS.checkedBag.shortHaul);
    expect(bagPrice(connecting, LOW_COST_EXTRAS)).toBe(LOW_COST_EXTRAS.checkedBag.shortHaul);
    expect(baggageAllowances("full_service", "economy", isLongHaul([1_600, 1_600])).adult).toContainEqual({ type: "checked", quantity: 0 });
    expect(bagPrice(offerFlying(3_200))).toBe(NETWORK_EXTRAS.checkedBag.longHaul);
    expect(baggageAllowances("full_service", "economy", isLongHaul([3_200])).adult).toContainEqual({ type: "checked", quantity: 1 });
    expect(bagPrice(offerFlying(3_000))).toBe(NETWORK_EXTRAS.checkedBag.shortHaul);
  });
});
