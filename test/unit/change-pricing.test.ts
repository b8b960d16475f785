import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changedBooking, priceChange, quotedPart, removedPart } from "../../src/order-changes/change-pricing";
import { checkChangeSlices } from "../../src/order-changes/change-rules";
import { refusal } from "../../src/orders/core/order-actions";
import type { Order, SelectedService } from "../../src/orders/core/order";
import { splitTotal, type OfferPayload, type StoredSegment, type StoredSlice } from "../../src/search/offer-payload";
import { AppError } from "../../src/errors/app-error";

/**
 * The arithmetic and rules of an order change (docs/rest-api.md#order-changes), without a server: the part of a
 * fare removed slices give up, the change's price (new fare − old fare + penalty), the order as
 * changed (base + taxes still its total), and when a change is refused.
 */

function segment(id: string, flightKey: string, departingAtUtc: string, arrivingAtUtc: string, distanceKm: number): StoredSegment {
  const carrier = { iataCode: "ZA", name: "Zephyr Air" };
  return {
    id,
    flightKey,
    marketingCarrier: carrier,
    marketingCarrierFlightNumber: "1",
    operatingCarrier: carrier,
    operatingCarrierFlightNumber: "1",
    aircraft: { iataCode: "789", name: "Boeing 787-9" },
    origin: "LHR",
    destination: "JFK",
    departingAt: departingAtUtc.slice(0, 19),
    arrivingAt: arrivingAtUtc.slice(0, 19),
    departingAtUtc,
    arrivingAtUtc,
    durationMinutes: (Date.parse(arrivingAtUtc) - Date.parse(departingAtUtc)) / 60_000,
    distanceKm,
    cabinClass: "economy",
    seatsLeft: 9,
    baggageAllowances: { adult: [], child: [], infant_without_seat: [] },
  };
}

function slice(id: string, departs: string, arrives: string, distanceKm: number): StoredSlice {
  return { id, origin: "LHR", destination: "JFK", departureDate: departs.slice(0, 10), durationMinutes: 60, segments: [segment(`seg_${id}`, `ZA1@${departs.slice(0, 10)}:${id}`, departs, arrives, distanceKm)] };
}

/** A round trip: out 6,000 km, back 4,000 km; an adult and a child. */
function roundTrip(): OfferPayload {
  return {
    owner: { iataCode: "ZA", name: "Zephyr Air" },
    fareBrandName: "Economy Classic",
    slices: [slice("out", "2026-07-10T10:00:00Z", "2026-07-10T18:00:00Z", 6000), slice("back", "2026-07-20T10:00:00Z", "2026-07-20T18:00:00Z", 4000)],
    passengers: [
      { id: "p1", type: "adult", fareAmount: 100_001, taxAmount: 20_003 },
      { id: "p2", type: "child", fareAmount: 75_000, taxAmount: 15_000 },
    ],
    conditions: { changeBeforeDeparture: { allowed: true, penaltyAmount: 15_000 }, refundBeforeDeparture: { allowed: false, penaltyAmount: null } },
    passengerIdentityDocumentsRequired: true,
  };
}

/** The airline's fare for a new outbound, 2 days later. */
function newOutbound(adultFare: number, childFare: number): OfferPayload {
  return {
    ...roundTrip(),
    fareBrandName: "Economy Flex",
    slices: [slice("out2", "2026-07-12T10:00:00Z", "2026-07-12T18:00:00Z", 6000)],
    passengers: [
      { id: "p1", type: "adult", fareAmount: adultFare, taxAmount: 9_000 },
      { id: "p2", type: "child", fareAmount: childFare, taxAmount: 7_000 },
    ],
    conditions: { changeBeforeDeparture: { allowed: true, penaltyAmount: 5_000 }, refundBeforeDeparture: { allowed: false, penaltyAmount: null } },
  };
}

const fare = (payload: OfferPayload) => payload.passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0);
const bag: SelectedService = { id: "ase_bag", type: "baggage", quantity: 1, unitAmount: 3_500, passengerIds: ["p1"], segmentIds: ["seg_out"] };
const seatBack: SelectedService = { id: "ase_seat", type: "seat", quantity: 1, unitAmount: 1_200, passengerIds: ["p1"], segmentIds: ["seg_back"], designator: "14C" };

function order(services: SelectedService[] = []): Pick<Order, "offer" | "services" | "totalAmount"> {
  const payload = roundTrip();
  const offer = { id: "off_1", tenantId: "ten_1", offerRequestId: "orq_1", totalAmount: fare(payload), currency: "USD", expiresAt: new Date(0), createdAt: new Date(0), payload };
  return { offer, services, totalAmount: offer.totalAmount + services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0) };
}

describe("the part of a fare a change removes", () => {
  it("is each passenger's fare and taxes shared out by distance; removing every slice gives up the whole fare", () => {
    const removed = removedPart(roundTrip(), new Set(["out"]));
    expect(removed.slices.map((candidate) => candidate.id)).toEqual(["out"]);
    expect(removed.passengers).toEqual([
      { id: "p1", type: "adult", fareAmount: 60_001, taxAmount: 12_002 },
      { id: "p2", type: "child", fareAmount: 45_000, taxAmount: 9_000 },
    ]);
    expect(removedPart(roundTrip(), new Set(["out", "back"])).passengers).toEqual(roundTrip().passengers);
  });
});

describe("a change's price and the order it leaves", () => {
  it("costs the new fare less the old plus the penalty, and leaves base + taxes equal to the total", () => {
    const booked = order();
    const removed = removedPart(booked.offer.payload, new Set(["out"]));
    const added = newOutbound(70_000, 52_500);
    const price = priceChange(booked, removed, added, 15_000);
    expect(price).toEqual({ changeTotalAmount: 122_500 - 105_001 + 15_000, penaltyAmount: 15_000, newTotalAmount: booked.totalAmount - 105_001 + 122_500 });

    const changed = changedBooking(booked, removed, added);
    expect(changed.offer.payload.slices.map((candidate) => candidate.id), "in departure order").toEqual(["out2", "back"]);
    expect(changed.offer.totalAmount).toBe(price.newTotalAmount);
    expect(changed.offer.payload.passengers).toEqual([
      { id: "p1", type: "adult", fareAmount: 100_001 - 60_001 + 70_000, taxAmount: 20_003 - 12_002 + 9_000 },
      { id: "p2", type: "child", fareAmount: 75_000 - 45_000 + 52_500, taxAmount: 15_000 - 9_000 + 7_000 },
    ]);
    expect(changed.offer.payload.fareBrandName, "the fare now held").toBe("Economy Flex");
    expect(changed.offer.payload.conditions).toEqual(added.conditions);
    const split = splitTotal(changed.offer.totalAmount, changed.offer.payload);
    expect(split.baseAmount + split.taxAmount).toBe(changed.offer.totalAmount);
  });

  it("is negative when the new fare is cheaper by more than the penalty: the penalty is still kept", () => {
    const booked = order();
    const removed = removedPart(booked.offer.payload, new Set(["out", "back"]));
    const price = priceChange(booked, removed, newOutbound(40_000, 30_000), 15_000);
    expect(price.changeTotalAmount).toBe(70_000 - 175_001 + 15_000);
    expect(price.newTotalAmount).toBe(70_000);
  });

  it("drops the services booked on removed flights, and their price leaves the total (not refunded)", () => {
    const booked = order([bag, seatBack]);
    const removed = removedPart(booked.offer.payload, new Set(["out"]));
    const added = newOutbound(70_000, 52_500);
    const price = priceChange(booked, removed, added, 0);
    const changed = changedBooking(booked, removed, added);
    expect(changed.services).toEqual([seatBack]);
    expect(price.changeTotalAmount, "services move no money").toBe(fare(added) - fare(removed));
    expect(price.newTotalAmount).toBe(changed.offer.totalAmount + seatBack.unitAmount);
  });

  it("keeps the order's total equal to its fare plus its services, whatever the fares (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: 1, max: 5_000_000 }), fc.boolean(), (adultFare, childFare, both) => {
        const booked = order([seatBack]);
        const removed = removedPart(booked.offer.payload, new Set(both ? ["out", "back"] : ["out"]));
        const added = newOutbound(adultFare, childFare);
        const price = priceChange(booked, removed, added, 15_000);
        const changed = changedBooking(booked, removed, added);
        const services = changed.services.reduce((sum, service) => sum + service.unitAmount, 0);
        expect(price.newTotalAmount).toBe(changed.offer.totalAmount + services);
        for (const passenger of changed.offer.payload.passengers) expect(passenger.taxAmount).toBeLessThanOrEqual(passenger.fareAmount);
      }),
    );
  });
});

describe("when a change is refused", () => {
  const ticketed = (overrides: Partial<Order> = {}): Order =>
    ({ id: "ord_1", status: "TICKETED", refundRequestedAt: null, ...order(), ...overrides }) as Order;
  const before = new Date("2026-07-01T00:00:00Z");
  /** Why the order cannot be changed (422 change_not_allowed naming order_id), or null. */
  const changeRefusal = (changed: Order, now: Date, noPenalty: boolean) => {
    const refused = refusal(changed, "change", now, { noPenalty });
    if (refused) expect({ code: refused.code, field: refused.details.field }).toEqual({ code: "change_not_allowed", field: "order_id" });
    return refused?.details.reason ?? null;
  };

  it("needs a TICKETED order, no refund under way, a fare allowing changes, before the first flight", () => {
    expect(changeRefusal(ticketed(), before, false)).toBeNull();
    expect(changeRefusal(ticketed({ status: "PENDING" }), before, false)).toContain("only a TICKETED order");
    expect(changeRefusal(ticketed({ refundRequestedAt: before }), before, false)).toContain("being refunded");
    expect(changeRefusal(ticketed(), new Date("2026-07-10T10:00:00Z"), false)).toContain("departed");
    const basic = ticketed();
    basic.offer = { ...basic.offer, payload: { ...basic.offer.payload, fareBrandName: "Basic", conditions: { ...basic.offer.payload.conditions, changeBeforeDeparture: { allowed: false, penaltyAmount: null } } } };
    expect(changeRefusal(basic, before, false)).toContain("does not allow changes");
    expect(changeRefusal(basic, before, true), "the airline's own change needs no fare rule").toBeNull();
  });

  it("names the slice to remove that is not the order's, and a second cabin", () => {
    const add = { origin: "LHR", destination: "JFK", departureDate: "2026-07-12", cabinClass: "economy" as const };
    const fieldOf = (work: () => unknown) => {
      try {
        work();
      } catch (error) {
        return error instanceof AppError ? `${error.code} ${error.details.field}` : String(error);
      }
      return "no error";
    };
    expect(checkChangeSlices(ticketed(), { remove: [{ sliceId: "out" }], add: [add] })).toEqual({ removed: new Set(["out"]), cabinClass: "economy" });
    expect(fieldOf(() => checkChangeSlices(ticketed(), { remove: [{ sliceId: "nope" }], add: [add] }))).toBe("invalid_field_value slices.remove[0].slice_id");
    expect(fieldOf(() => checkChangeSlices(ticketed(), { remove: [{ sliceId: "out" }, { sliceId: "out" }], add: [add] }))).toBe("invalid_field_value slices.remove[1].slice_id");
    expect(fieldOf(() => checkChangeSlices(ticketed(), { remove: [{ sliceId: "out" }], add: [add, { ...add, cabinClass: "first" }] }))).toBe("invalid_field_value slices.add[1].cabin_class");
  });
});

describe("a change the supplier quoted", () => {
  it("prices at the supplier's change total: the removed fare raised by it less the penalty, shared across passengers; the order stays the supplier's", () => {
    const booked = order();
    booked.offer.payload = { ...booked.offer.payload, supplier: { id: "duffel", name: "Duffel" }, supplierOffer: { id: "off_duffel", passengerIds: ["pas_1", "pas_2"], totalAmount: "1751.01", totalCurrency: "USD", requiresInstantPayment: false } };
    const removed = removedPart(booked.offer.payload, new Set(["out"]));
    const [slice2] = newOutbound(1, 1).slices;
    for (const [changeTotal, penalty] of [[2_501, 1_000], [-3_001, 500], [0, 0]] as const) {
      const added = quotedPart(removed, [slice2!], changeTotal - penalty);
      expect(priceChange(booked, removed, added, penalty).changeTotalAmount).toBe(changeTotal);
      expect(added.slices).toEqual([slice2]);
      const changed = changedBooking(booked, removed, added);
      expect(changed.offer.payload.supplier).toEqual({ id: "duffel", name: "Duffel" });
      expect(changed.offer.payload.supplierOffer?.id).toBe("off_duffel");
      const split = splitTotal(changed.offer.totalAmount, changed.offer.payload);
      expect(split.baseAmount + split.taxAmount).toBe(changed.offer.totalAmount);
    }
  });
});
