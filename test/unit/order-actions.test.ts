import { describe, expect, it } from "vitest";
import type { Order, OrderStatus } from "../../src/orders/core/order";
import { ORDER_ACTIONS, refusal, SEAT_OWNING_STATUSES, stateAllows, type OrderAction } from "../../src/orders/core/order-actions";
import type { StoredOffer } from "../../src/search/offer-payload";
import { orderOf } from "../helpers/order-fixture";

/**
 * What an order allows (src/orders/core/order-actions.ts): for every action and every state, the
 * answer and its code; then each condition beyond the state (the payment deadline, a refund under
 * way, the first departure, the fare's conditions) on the actions it concerns, in the words the
 * services answer with.
 */

const STATUSES: OrderStatus[] = ["PENDING", "PROCESSING", "TICKETED", "FAILED", "CANCELED", "REFUNDED"];
const ACTIONS = Object.keys(ORDER_ACTIONS) as OrderAction[];

const DEPARTURE = new Date("2026-07-10T17:30:00Z");
const BEFORE = new Date("2026-06-02T00:00:00Z");

function offer(conditions: { refund?: boolean; change?: boolean } = {}): StoredOffer {
  return {
    id: "off_1",
    tenantId: "ten_1",
    offerRequestId: "orq_1",
    totalAmount: 100_000,
    currency: "USD",
    expiresAt: new Date("2026-06-01T12:30:00Z"),
    createdAt: new Date("2026-06-01T12:00:00Z"),
    payload: {
      owner: { iataCode: "ZA", name: "Zephyr Air" },
      fareBrandName: "Basic",
      slices: [{ id: "sli_1", origin: "LHR", destination: "JFK", departureDate: "2026-07-10", durationMinutes: 475, segments: [{ departingAt: "2026-07-10T18:30:00", departingAtUtc: DEPARTURE.toISOString(), arrivingAt: "2026-07-10T21:25:00" }] }],
      passengers: [{ id: "p1", type: "adult", fareAmount: 100_000 }],
      conditions: {
        changeBeforeDeparture: { allowed: conditions.change ?? true, penaltyAmount: 0 },
        refundBeforeDeparture: { allowed: conditions.refund ?? true, penaltyAmount: 0 },
      },
      passengerIdentityDocumentsRequired: false,
    },
  } as unknown as StoredOffer;
}

const order = (overrides: Partial<Order> = {}) => orderOf(offer(), overrides);

/** The refusal as code and reason, or "allowed". */
function answer(refused: ReturnType<typeof refusal>): string {
  return refused === null ? "allowed" : `${refused.code}: ${refused.details.reason}`;
}

describe("what an order allows", () => {
  it("allows each action in exactly the states its table names, and refuses the others naming both", () => {
    for (const action of ACTIONS) {
      for (const status of STATUSES) {
        const refused = refusal(order({ status }), action, BEFORE);
        const allowed = (ORDER_ACTIONS[action].from as readonly OrderStatus[]).includes(status);
        expect(stateAllows({ status }, action), `${action} ${status}`).toBe(allowed);
        if (allowed) {
          expect(refused, `${action} ${status}`).toBeNull();
          continue;
        }
        // A change refused for its state is the change's own 422; every other action is 409.
        expect(refused?.code, `${action} ${status}`).toBe(action === "change" ? "change_not_allowed" : "order_state_conflict");
        expect(refused?.details.reason, `${action} ${status}`).toContain(`Order ord_fixture is ${status}`);
        expect(refused?.details.reason, `${action} ${status}`).toContain(`only a ${ORDER_ACTIONS[action].from.join(" or ")} order`);
      }
    }
  });

  it("takes no payment and no services once a hold's payment deadline has passed; a cancel still goes", () => {
    const deadline = new Date("2026-06-01T18:00:00Z");
    const hold = order({ status: "PENDING", paymentRequiredBy: deadline });
    const passed = "order_state_conflict: Order ord_fixture is PENDING; only a PENDING order can be ticketed (its payment deadline 2026-06-01T18:00:00.000Z has passed).";
    expect(answer(refusal(hold, "pay", new Date(deadline.getTime() - 1)))).toBe("allowed");
    expect(answer(refusal(hold, "pay", deadline))).toBe(passed);
    expect(answer(refusal(hold, "addServices", deadline))).toBe(
      "order_state_conflict: Order ord_fixture is PENDING; only a PENDING or TICKETED order can have services added (its payment deadline 2026-06-01T18:00:00.000Z has passed).",
    );
    expect(answer(refusal(hold, "cancel", deadline))).toBe("allowed");
    expect(answer(refusal(hold, "cancelWithQuote", deadline))).toBe("allowed");
    // A hold booked before deadlines existed has none.
    expect(answer(refusal(order({ status: "PENDING" }), "pay", DEPARTURE))).toBe("allowed");
  });

  it("refuses services, a second refund, a change and the airline's change while a refund is under way", () => {
    const refunding = order({ refundRequestedAt: BEFORE });
    expect(answer(refusal(refunding, "addServices", BEFORE))).toBe("order_state_conflict: Order ord_fixture is TICKETED; only a PENDING or TICKETED order can have services added (a refund is under way).");
    expect(answer(refusal(refunding, "refund", BEFORE))).toBe("order_state_conflict: Order ord_fixture is TICKETED; only a TICKETED order can be refunded (a refund is already under way).");
    expect(answer(refusal(refunding, "cancelWithQuote", BEFORE))).toBe("order_state_conflict: Order ord_fixture is TICKETED; only a TICKETED order can be refunded (a refund is already under way).");
    expect(answer(refusal(refunding, "change", BEFORE))).toBe("change_not_allowed: Order ord_fixture is being refunded.");
    expect(answer(refusal(refunding, "acceptAirlineChange", BEFORE))).toBe(
      "order_state_conflict: Order ord_fixture is TICKETED and being refunded; only a TICKETED order with no refund under way can accept an airline-initiated change.",
    );
    expect(answer(refusal(refunding, "simulateAirlineChange", BEFORE))).toBe(
      "order_state_conflict: Order ord_fixture is TICKETED and being refunded; only a TICKETED order with no refund under way can have an airline-initiated change.",
    );
  });

  it("refuses refunds and changes once the first flight has left (from its very minute), and the airline's change too", () => {
    const departed = "The first flight departed at 2026-07-10T17:30:00.000Z.";
    const just = new Date(DEPARTURE.getTime() - 1);
    for (const action of ["refund", "cancelWithQuote", "change", "simulateAirlineChange"] as const) expect(answer(refusal(order(), action, just)), action).toBe("allowed");
    expect(answer(refusal(order(), "refund", DEPARTURE))).toBe(`refund_not_allowed: ${departed}`);
    expect(answer(refusal(order(), "cancelWithQuote", DEPARTURE))).toBe(`refund_not_allowed: ${departed}`);
    expect(answer(refusal(order(), "change", DEPARTURE))).toBe(`change_not_allowed: ${departed}`);
    expect(refusal(order(), "simulateAirlineChange", DEPARTURE)?.details).toEqual({ field: "id", reason: departed });
    // A hold is no refund: cancelling it through a quote stays allowed after departure.
    expect(answer(refusal(order({ status: "PENDING" }), "cancelWithQuote", DEPARTURE))).toBe("allowed");
    // Services and an airline change's acceptance do not depend on the departure.
    expect(answer(refusal(order(), "addServices", DEPARTURE))).toBe("allowed");
    expect(answer(refusal(order(), "acceptAirlineChange", DEPARTURE))).toBe("allowed");
  });

  it("follows the fare: no one-step refund of a non-refundable fare (a quote still returns its taxes), no change unless it answers the airline's", () => {
    const nonRefundable = order({ offer: offer({ refund: false }) });
    expect(answer(refusal(nonRefundable, "refund", BEFORE))).toBe("refund_not_allowed: The Basic fare is not refundable.");
    expect(answer(refusal(nonRefundable, "cancelWithQuote", BEFORE))).toBe("allowed");
    const unchangeable = order({ offer: offer({ change: false }) });
    expect(answer(refusal(unchangeable, "change", BEFORE))).toBe("change_not_allowed: The Basic fare does not allow changes.");
    expect(answer(refusal(unchangeable, "change", BEFORE, { noPenalty: true }))).toBe("allowed");
    expect(refusal(unchangeable, "change", BEFORE)?.details.field).toBe("order_id");
  });

  it("names once the states in which an order owns its seats: held, ticketing or ticketed", () => {
    expect([...SEAT_OWNING_STATUSES].sort()).toEqual(["PENDING", "PROCESSING", "TICKETED"]);
    // Every action that books or keeps seats applies to an order that owns them.
    for (const action of ["pay", "addServices", "change", "acceptAirlineChange"] as const) {
      for (const status of ORDER_ACTIONS[action].from) expect(SEAT_OWNING_STATUSES, `${action} ${status}`).toContain(status);
    }
  });
});
