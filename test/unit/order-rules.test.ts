import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database";
import { AppError } from "../../src/errors/app-error";
import { canonicalJson, requestFingerprint } from "../../src/idempotency/fingerprint";
import { idempotencyKey } from "../../src/idempotency/idempotency-key";
import { convertMinor, USD_RATES } from "../../src/money/exchange-rates";
import { formatMinor, minorDigits, parseMinor } from "../../src/money/format";
import type { IdentityDocument, Order, OrderStatus } from "../../src/orders/core/order";
import type { OrderPassengerRequest } from "../../src/orders/core/order-commands";
import { ORDER_ACTIONS, refusal, stateConflict, type OrderAction } from "../../src/orders/core/order-actions";
import { orderTransitions, TERMINAL_STATUSES, transition, type OrderTrigger } from "../../src/orders/core/order-state-machine";
import { checkPassengers } from "../../src/orders/core/passenger-rules";
import { refundAmount } from "../../src/orders/cancellation/refund-rules";
import { selectServices } from "../../src/orders/services/service-selection";
import { availableExtras, NETWORK_EXTRAS } from "../../src/connectors/simulated/extras";
import { SeatCatalogue } from "../../src/connectors/simulated/seating/seat-catalogue";
import type { SimulatedBookings } from "../../src/connectors/simulated/simulated-bookings";
import type { SeatElement, SeatMap } from "../../src/gateway/contract/seat-maps";
import { seatServiceId } from "../../src/connectors/simulated/seating/seat-service-ids";
import type { StoredOffer, StoredSegment } from "../../src/search/offer-payload";
import type { CabinClass, PassengerType } from "../../src/gateway/contract/air";
import { yearsBetween } from "../../src/validation/calendar-date";
import { calendarDate } from "../../src/validation/input-values";
import { orderOf as order } from "../helpers/order-fixture";

/**
 * The pure rules behind orders, without a server: passengers against the offer booked (every
 * rule of checkPassengers, each error naming its exact field), the order state machine against
 * the lifecycle (docs/rest-api.md#order-lifecycle), service selection and its price, refund rules, money as decimal strings and
 * its conversion, request fingerprints and idempotency keys.
 */

// ─── Fixtures ──────────────────────────────────────────────────────────────

/** "Today" for every rule below: fixed, so the fixtures' dates never go stale. */
const TODAY = "2026-06-01";

function segment(id: string, origin: string, destination: string, departingAt: string, departingAtUtc: string, arrivingAt: string, arrivingAtUtc: string, options: { distanceKm?: number; cabinClass?: CabinClass } = {}): StoredSegment {
  const carrier = { iataCode: "ZA", name: "Zephyr Air" };
  return {
    id,
    flightKey: `ZA1@${departingAt.slice(0, 10)}:${origin}-${destination}`,
    marketingCarrier: carrier,
    marketingCarrierFlightNumber: "1",
    operatingCarrier: carrier,
    operatingCarrierFlightNumber: "1",
    aircraft: { iataCode: "789", name: "Boeing 787-9" },
    origin,
    destination,
    departingAt,
    arrivingAt,
    departingAtUtc,
    arrivingAtUtc,
    durationMinutes: (Date.parse(arrivingAtUtc) - Date.parse(departingAtUtc)) / 60_000,
    distanceKm: options.distanceKm ?? 5540,
    cabinClass: options.cabinClass ?? "economy",
    seatsLeft: 9,
    baggageAllowances: { adult: [], child: [], infant_without_seat: [] },
  };
}

/**
 * A round trip LHR → JFK → LHR: out on 2026-07-10 (local), back overnight, landing in London on
 * 2026-07-21 (local). So the first departure date is 2026-07-10 and the last arrival 2026-07-21.
 */
function roundTrip(options: { documentsRequired?: boolean; passengers?: Array<{ id: string; type: PassengerType }>; currency?: string; cabinClass?: CabinClass; refund?: { allowed: boolean; penaltyAmount: number | null } } = {}): StoredOffer {
  const passengers = options.passengers ?? [
    { id: "pas_adult", type: "adult" },
    { id: "pas_child", type: "child" },
    { id: "pas_infant", type: "infant_without_seat" },
  ];
  const cabinClass = options.cabinClass ?? "economy";
  return {
    id: "off_fixture",
    tenantId: "ten_fixture",
    offerRequestId: "orq_fixture",
    totalAmount: 150_000,
    currency: options.currency ?? "USD",
    expiresAt: new Date("2026-06-01T12:30:00Z"),
    createdAt: new Date("2026-06-01T12:00:00Z"),
    payload: {
      owner: { iataCode: "ZA", name: "Zephyr Air" },
      fareBrandName: "Economy Light",
      slices: [
        {
          id: "sli_out",
          origin: "LHR",
          destination: "JFK",
          departureDate: "2026-07-10",
          durationMinutes: 475,
          segments: [segment("seg_out", "LHR", "JFK", "2026-07-10T18:30:00", "2026-07-10T17:30:00Z", "2026-07-10T21:25:00", "2026-07-11T01:25:00Z", { cabinClass })],
        },
        {
          id: "sli_back",
          origin: "JFK",
          destination: "LHR",
          departureDate: "2026-07-20",
          durationMinutes: 425,
          segments: [segment("seg_back", "JFK", "LHR", "2026-07-20T22:00:00", "2026-07-21T02:00:00Z", "2026-07-21T10:05:00", "2026-07-21T09:05:00Z", { cabinClass })],
        },
      ],
      passengers: passengers.map((passenger) => ({ ...passenger, fareAmount: 50_000 })),
      conditions: {
        changeBeforeDeparture: { allowed: true, penaltyAmount: 10_000 },
        refundBeforeDeparture: options.refund ?? { allowed: true, penaltyAmount: 5_000 },
      },
      passengerIdentityDocumentsRequired: options.documentsRequired ?? true,
    },
  };
}

/** A domestic one-way (JFK → BOS, 300 km), no documents required. */
function domestic(): StoredOffer {
  const offer = roundTrip({ documentsRequired: false, passengers: [{ id: "pas_adult", type: "adult" }] });
  offer.payload.slices = [
    {
      id: "sli_dom",
      origin: "JFK",
      destination: "BOS",
      departureDate: "2026-07-10",
      durationMinutes: 75,
      segments: [segment("seg_dom", "JFK", "BOS", "2026-07-10T08:00:00", "2026-07-10T12:00:00Z", "2026-07-10T09:15:00", "2026-07-10T13:15:00Z", { distanceKm: 300 })],
    },
  ];
  return offer;
}

const passport = (expiresOn = "2030-01-01"): IdentityDocument => ({ type: "passport", number: "P1234567", issuingCountryCode: "GB", expiresOn });
const nationalId = (expiresOn = "2030-01-01"): IdentityDocument => ({ type: "national_identity_card", number: "ID1234567", issuingCountryCode: "FR", expiresOn });

const BORN = { adult: "1985-04-12", child: "2019-06-01", infant_without_seat: "2025-09-01" } as const;

function passenger(id: string, type: PassengerType, overrides: Partial<OrderPassengerRequest> = {}): OrderPassengerRequest {
  return {
    id,
    type: undefined,
    title: "ms",
    givenName: "Ada",
    familyName: "Lovelace",
    bornOn: BORN[type],
    gender: "f",
    email: `${id}@travel.example`,
    phoneNumber: "+442080160508",
    identityDocuments: [passport()],
    ...overrides,
  };
}

/** The three passengers of roundTrip(), valid, in the offer's order. */
const family = (): OrderPassengerRequest[] => [passenger("pas_adult", "adult"), passenger("pas_child", "child"), passenger("pas_infant", "infant_without_seat")];

/** Runs `work`, which must throw a catalogued 400 validation_failed; returns the field it names. */
function refusedField(work: () => unknown, code: "validation_failed" | "invalid_field_value" = "validation_failed"): string {
  let thrown: unknown;
  try {
    work();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected a ${code} AppError`).toBeInstanceOf(AppError);
  const error = thrown as AppError;
  expect({ code: error.code, status: error.status }).toEqual({ code, status: code === "validation_failed" ? 400 : 422 });
  expect(error.details.field).toEqual(expect.any(String));
  // The message leads with the field, so a client reading only the message sees it too.
  expect(error.message.startsWith(`${error.details.field}: `), error.message).toBe(true);
  return error.details.field!;
}

/** The offer's extras at the network's prices, and no seat of a map: these tests choose bags and seats without a designator. */
const extrasOf = (offer: StoredOffer) => ({ available: availableExtras(offer, NETWORK_EXTRAS), seats: new Map() });

// ─── Passengers ────────────────────────────────────────────────────────────

describe("checkPassengers", () => {
  it("accepts every passenger of the offer once, in any order, and returns them in the offer's order with the offer's types", () => {
    const [adult, child, infant] = family();
    const booked = checkPassengers([infant!, adult!, child!], roundTrip(), TODAY);
    expect(booked.map((p) => [p.id, p.type, p.position])).toEqual([
      ["pas_adult", "adult", 0],
      ["pas_child", "child", 1],
      ["pas_infant", "infant_without_seat", 2],
    ]);
    expect(booked[0]).toMatchObject({ givenName: "Ada", familyName: "Lovelace", bornOn: BORN.adult, identityDocuments: [passport()] });
    // A type, when sent, may be the offer's own.
    expect(checkPassengers([{ ...adult!, type: "adult" }, { ...child!, type: "child" }, { ...infant!, type: "infant_without_seat" }], roundTrip(), TODAY)).toHaveLength(3);
  });

  it("puts each infant without a seat on an adult's lap: the adult naming it (infant_passenger_id), else the first adult holding none", () => {
    const twoAdults = roundTrip({ passengers: [{ id: "pas_adult", type: "adult" }, { id: "pas_adult2", type: "adult" }, { id: "pas_infant", type: "infant_without_seat" }] });
    const [adult, , infant] = family();
    const second = { ...adult!, id: "pas_adult2", givenName: "Grace" };
    expect(checkPassengers([adult!, second, infant!], twoAdults, TODAY).map((p) => [p.id, p.infantPassengerId])).toEqual([
      ["pas_adult", "pas_infant"],
      ["pas_adult2", null],
      ["pas_infant", null],
    ]);
    expect(checkPassengers([adult!, { ...second, infantPassengerId: "pas_infant" }, infant!], twoAdults, TODAY).map((p) => p.infantPassengerId)).toEqual([null, "pas_infant", null]);
    // Named twice, named by a non-adult, or naming someone who is not an infant: refused, naming the field.
    expect(refusedField(() => checkPassengers([{ ...adult!, infantPassengerId: "pas_infant" }, { ...second, infantPassengerId: "pas_infant" }, infant!], twoAdults, TODAY))).toBe("passengers[1].infant_passenger_id");
    expect(refusedField(() => checkPassengers([adult!, second, { ...infant!, infantPassengerId: "pas_infant" }], twoAdults, TODAY))).toBe("passengers[2].infant_passenger_id");
    expect(refusedField(() => checkPassengers([{ ...adult!, infantPassengerId: "pas_adult2" }, second, infant!], twoAdults, TODAY))).toBe("passengers[0].infant_passenger_id");
  });

  it("refuses an id the offer does not have, naming that passenger's id", () => {
    const passengers = family();
    passengers[1] = passenger("pas_stranger", "child");
    expect(refusedField(() => checkPassengers(passengers, roundTrip(), TODAY))).toBe("passengers[1].id");
  });

  it("refuses a passenger given twice, naming the second", () => {
    const passengers = [...family(), passenger("pas_child", "child")];
    expect(refusedField(() => checkPassengers(passengers, roundTrip(), TODAY))).toBe("passengers[3].id");
  });

  it("refuses a passenger of the offer left out, naming the list", () => {
    expect(refusedField(() => checkPassengers(family().slice(0, 2), roundTrip(), TODAY))).toBe("passengers");
    expect(refusedField(() => checkPassengers([], roundTrip(), TODAY))).toBe("passengers");
  });

  it("refuses a type other than the offer's for that passenger", () => {
    const passengers = family();
    passengers[1] = { ...passengers[1]!, type: "adult" };
    expect(refusedField(() => checkPassengers(passengers, roundTrip(), TODAY))).toBe("passengers[1].type");
  });

  it("refuses a birth date after today; today itself is fine for an infant", () => {
    const passengers = family();
    passengers[2] = { ...passengers[2]!, bornOn: "2026-06-02" };
    expect(refusedField(() => checkPassengers(passengers, roundTrip(), TODAY))).toBe("passengers[2].born_on");
    passengers[2] = { ...passengers[2]!, bornOn: TODAY };
    expect(checkPassengers(passengers, roundTrip(), TODAY)).toHaveLength(3);
  });

  it("an adult must be 12 on the first departure date (2026-07-10)", () => {
    const withAdult = (bornOn: string) => [passenger("pas_adult", "adult", { bornOn }), ...family().slice(1)];
    expect(checkPassengers(withAdult("2014-07-10"), roundTrip(), TODAY)).toHaveLength(3);
    expect(refusedField(() => checkPassengers(withAdult("2014-07-11"), roundTrip(), TODAY))).toBe("passengers[0].born_on");
    expect(refusedField(() => checkPassengers(withAdult(BORN.child), roundTrip(), TODAY))).toBe("passengers[0].born_on");
  });

  it("a child must be 2 to 11 on the first departure date", () => {
    const withChild = (bornOn: string) => [family()[0]!, passenger("pas_child", "child", { bornOn }), family()[2]!];
    // Turns 2 on the day of the first flight: a child.
    expect(checkPassengers(withChild("2024-07-10"), roundTrip(), TODAY)).toHaveLength(3);
    expect(refusedField(() => checkPassengers(withChild("2024-07-11"), roundTrip(), TODAY))).toBe("passengers[1].born_on");
    // Still 11 on the day of the first flight: a child; 12 that day: an adult.
    expect(checkPassengers(withChild("2014-07-11"), roundTrip(), TODAY)).toHaveLength(3);
    expect(refusedField(() => checkPassengers(withChild("2014-07-10"), roundTrip(), TODAY))).toBe("passengers[1].born_on");
  });

  it("an infant without a seat must still be under 2 on the last arrival date (2026-07-21), not only at departure", () => {
    const withInfant = (bornOn: string) => [...family().slice(0, 2), passenger("pas_infant", "infant_without_seat", { bornOn })];
    expect(checkPassengers(withInfant("2024-07-22"), roundTrip(), TODAY)).toHaveLength(3);
    expect(refusedField(() => checkPassengers(withInfant("2024-07-21"), roundTrip(), TODAY))).toBe("passengers[2].born_on");
    // 1 on the way out (2026-07-10), 2 by the return (2026-07-21).
    expect(refusedField(() => checkPassengers(withInfant("2024-07-15"), roundTrip(), TODAY))).toBe("passengers[2].born_on");
  });

  it("requires a passport of everyone when the itinerary crosses a border", () => {
    const none = family();
    none[1] = { ...none[1]!, identityDocuments: [] };
    expect(refusedField(() => checkPassengers(none, roundTrip(), TODAY))).toBe("passengers[1].identity_documents");
    const idCardOnly = family();
    idCardOnly[2] = { ...idCardOnly[2]!, identityDocuments: [nationalId()] };
    expect(refusedField(() => checkPassengers(idCardOnly, roundTrip(), TODAY))).toBe("passengers[2].identity_documents");
    const both = family();
    both[0] = { ...both[0]!, identityDocuments: [nationalId(), passport()] };
    expect(checkPassengers(both, roundTrip(), TODAY)).toHaveLength(3);
  });

  it("compares dates as dates, not as text: a passport expiring in 2035 does not cover an arrival in year 10000", () => {
    const offer = roundTrip();
    const slices = offer.payload.slices.map((slice) => ({
      ...slice,
      segments: slice.segments.map((segment) => ({ ...segment, arrivingAt: "+010000-01-01T17:35" })),
    }));
    const farOffer = { ...offer, payload: { ...offer.payload, slices } };
    const expiring = family().map((input) => ({ ...input, identityDocuments: [passport("2035-01-01")] }));
    expect(refusedField(() => checkPassengers(expiring, farOffer, TODAY))).toBe("passengers[0].identity_documents[0].expires_on");
  });

  it("requires no document when the itinerary stays in one country", () => {
    expect(checkPassengers([passenger("pas_adult", "adult", { identityDocuments: [] })], domestic(), TODAY)).toHaveLength(1);
    expect(checkPassengers([passenger("pas_adult", "adult", { identityDocuments: [nationalId()] })], domestic(), TODAY)).toHaveLength(1);
  });

  it("refuses any document expiring on or before the last arrival date, naming that document", () => {
    const expiring = (documents: IdentityDocument[]) => [family()[0]!, { ...family()[1]!, identityDocuments: documents }, family()[2]!];
    expect(refusedField(() => checkPassengers(expiring([passport("2026-07-21")]), roundTrip(), TODAY))).toBe("passengers[1].identity_documents[0].expires_on");
    expect(refusedField(() => checkPassengers(expiring([passport("2026-07-15")]), roundTrip(), TODAY))).toBe("passengers[1].identity_documents[0].expires_on");
    expect(refusedField(() => checkPassengers(expiring([passport(), nationalId("2026-01-01")]), roundTrip(), TODAY))).toBe("passengers[1].identity_documents[1].expires_on");
    expect(checkPassengers(expiring([passport("2026-07-22")]), roundTrip(), TODAY)).toHaveLength(3);
    // Also when no document is required: one given must still be valid.
    const lastArrivalDomestic = "2026-07-10";
    expect(refusedField(() => checkPassengers([passenger("pas_adult", "adult", { identityDocuments: [nationalId(lastArrivalDomestic)] })], domestic(), TODAY))).toBe(
      "passengers[0].identity_documents[0].expires_on",
    );
  });

  it("names the first passenger at fault, by the position the client sent", () => {
    const passengers = [passenger("pas_child", "child"), passenger("pas_adult", "adult", { bornOn: "2030-01-01" }), passenger("pas_infant", "infant_without_seat")];
    expect(refusedField(() => checkPassengers(passengers, roundTrip(), TODAY))).toBe("passengers[1].born_on");
  });
});

describe("calendar dates", () => {
  const isCalendarDate = (text: string) => calendarDate.safeParse(text).success;

  it("accepts only real dates written YYYY-MM-DD", () => {
    expect(["2024-02-29", "2026-07-10", "2026-12-31", "2000-02-29"].map(isCalendarDate)).toEqual([true, true, true, true]);
    expect(["2026-02-29", "1900-02-29", "2026-13-01", "2026-04-31", "2026-7-10", "10-07-2026", "2026-07-10T00:00:00", ""].map(isCalendarDate)).toEqual(Array(8).fill(false));
  });

  it("refuses dates before 1900 (JavaScript reads years 0–99 as 1900–1999)", () => {
    expect(["1900-01-01", "1999-01-15"].map(isCalendarDate)).toEqual([true, true]);
    expect(["0099-01-15", "0001-01-01", "1899-12-31"].map(isCalendarDate)).toEqual([false, false, false]);
  });

  it("counts whole years, a birthday counting on its day", () => {
    expect(yearsBetween("2014-07-10", "2026-07-10")).toBe(12);
    expect(yearsBetween("2014-07-11", "2026-07-10")).toBe(11);
    expect(yearsBetween("2024-02-29", "2025-02-28")).toBe(0);
    expect(yearsBetween("2024-02-29", "2025-03-01")).toBe(1);
    expect(yearsBetween("2026-06-01", "2026-06-01")).toBe(0);
  });
});

// ─── State machine ─────────────────────────────────────────────────────────

const STATUSES: OrderStatus[] = ["PENDING", "PROCESSING", "TICKETED", "FAILED", "CANCELED", "REFUNDED"];

describe("the order state machine", () => {
  it("is exactly the documented lifecycle's table", () => {
    expect(orderTransitions).toEqual({
      ticket: { from: "PENDING", to: "PROCESSING" },
      ticketed: { from: "PROCESSING", to: "TICKETED" },
      fail: { from: "PROCESSING", to: "FAILED" },
      bookingFailed: { from: "PENDING", to: "FAILED" },
      cancel: { from: "PENDING", to: "CANCELED" },
      refund: { from: "TICKETED", to: "REFUNDED" },
    });
    expect([...TERMINAL_STATUSES].sort()).toEqual(["CANCELED", "FAILED", "REFUNDED", "TICKETED"]);
    expect(ORDER_ACTIONS.updatePassengers.from).toEqual(["PENDING"]);
  });

  it("leaves a terminal state only by TICKETED → REFUNDED, never returns to PENDING, and reaches every state from PENDING", () => {
    const rows: Array<{ from: OrderStatus; to: OrderStatus }> = Object.values(orderTransitions);
    const outOfTerminal = rows.filter((row) => TERMINAL_STATUSES.includes(row.from)).map((row) => `${row.from}→${row.to}`);
    expect(outOfTerminal).toEqual(["TICKETED→REFUNDED"]);
    expect(rows.some((row) => row.to === "PENDING")).toBe(false);
    const reached = new Set<OrderStatus>(["PENDING"]);
    for (let size = 0; size !== reached.size; ) {
      size = reached.size;
      for (const row of rows) if (reached.has(row.from)) reached.add(row.to);
    }
    expect([...reached].sort()).toEqual([...STATUSES].sort());
    // Every non-terminal state can move on.
    for (const status of STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s))) expect(rows.some((row) => row.from === status), status).toBe(true);
  });

  it.each(["sqlite", "postgresql"] as const)("each trigger is a compare-and-set from its state to its target (%s)", (provider) => {
    const db = { provider } as Database;
    for (const [trigger, { from, to }] of Object.entries(orderTransitions) as Array<[OrderTrigger, { from: OrderStatus; to: OrderStatus }]>) {
      const statement = transition(db, { id: "ord_1", tenantId: "ten_1" }, trigger, new Date("2026-06-01T12:00:00Z"));
      expect(statement.guard).toBe("order");
      const sql = statement.sql.sql;
      const literal = (status: string) => (provider === "postgresql" ? `'${status}'::"OrderStatus"` : `'${status}'`);
      expect(sql, trigger).toMatch(new RegExp(`SET "status" = ${escape(literal(to))}`));
      expect(sql, trigger).toMatch(new RegExp(`"status" = ${escape(literal(from))}\\s*$`));
      expect(statement.sql.values).toEqual(expect.arrayContaining(["ord_1", "ten_1"]));
    }
  });

  it("a refused action is 409 order_state_conflict naming the order's current state and the states it needed", () => {
    for (const [action, { from }] of Object.entries(ORDER_ACTIONS) as Array<[OrderAction, { from: readonly OrderStatus[] }]>) {
      for (const status of STATUSES.filter((s) => !from.includes(s))) {
        const error = stateConflict({ id: "ord_1", status }, action);
        expect(error).toBeInstanceOf(AppError);
        expect({ code: error.code, status: error.status }).toEqual({ code: "order_state_conflict", status: 409 });
        expect(error.message).toContain(`Order ord_1 is ${status};`);
        expect(error.message).toContain(`only a ${from.join(" or ")} order can`);
        expect(error.details.reason).toBe(error.message);
      }
    }
    expect(stateConflict({ id: "ord_2", status: "PROCESSING" }, "updatePassengers").message).toBe("Order ord_2 is PROCESSING; only a PENDING order can have its passengers changed.");
    expect(stateConflict({ id: "ord_3", status: "CANCELED" }, "cancel").message).toBe("Order ord_3 is CANCELED; only a PENDING order can be cancelled.");
    expect(stateConflict({ id: "ord_4", status: "TICKETED" }, "refund", "a refund is already under way").message).toBe(
      "Order ord_4 is TICKETED; only a TICKETED order can be refunded (a refund is already under way).",
    );
  });

  it("each action a transition performs applies to the state the transition leaves", () => {
    expect(ORDER_ACTIONS.pay.from).toEqual([orderTransitions.ticket.from]);
    expect(ORDER_ACTIONS.cancel.from).toEqual([orderTransitions.cancel.from]);
    expect(ORDER_ACTIONS.refund.from).toEqual([orderTransitions.refund.from]);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// ─── Services ──────────────────────────────────────────────────────────────

describe("selectServices", () => {
  const offer = roundTrip();
  const services = availableExtras(offer, NETWORK_EXTRAS);
  const find = (type: "baggage" | "seat", passengerId: string, segmentId: string) => {
    const found = services.find((s) => s.type === type && s.passengerIds[0] === passengerId && s.segmentIds.includes(segmentId));
    if (!found) throw new Error(`no ${type} for ${passengerId} on ${segmentId}`);
    return found;
  };

  it("offers a bag per passenger and slice (long-haul USD 60, max 2) and a seat per seated passenger and segment (economy USD 12, max 1)", () => {
    expect(services.filter((s) => s.type === "baggage")).toHaveLength(3 * 2);
    expect(services.filter((s) => s.type === "seat")).toHaveLength(2 * 2);
    expect(services.some((s) => s.type === "seat" && s.passengerIds.includes("pas_infant"))).toBe(false);
    expect(find("baggage", "pas_adult", "seg_out")).toMatchObject({ totalAmount: 6000, maximumQuantity: 2, segmentIds: ["seg_out"] });
    expect(find("seat", "pas_child", "seg_back")).toMatchObject({ totalAmount: 1200, maximumQuantity: 1 });
    // The same offer, the same ids: an order can name them later.
    expect(availableExtras(roundTrip(), NETWORK_EXTRAS).map((s) => s.id)).toEqual(services.map((s) => s.id));
  });

  it("prices the selection: the total is the sum of unit price × quantity", () => {
    const bag = find("baggage", "pas_adult", "seg_out");
    const seat = find("seat", "pas_adult", "seg_out");
    const infantBag = find("baggage", "pas_infant", "seg_back");
    const result = selectServices(
      [
        { id: bag.id, quantity: 2 },
        { id: seat.id, quantity: 1 },
        { id: infantBag.id, quantity: 1 },
      ],
      offer,
      extrasOf(offer),
    );
    expect(result.amount).toBe(2 * 6000 + 1200 + 6000);
    expect(result.services).toEqual([
      { id: bag.id, type: "baggage", quantity: 2, unitAmount: 6000, passengerIds: ["pas_adult"], segmentIds: ["seg_out"] },
      { id: seat.id, type: "seat", quantity: 1, unitAmount: 1200, passengerIds: ["pas_adult"], segmentIds: ["seg_out"] },
      { id: infantBag.id, type: "baggage", quantity: 1, unitAmount: 6000, passengerIds: ["pas_infant"], segmentIds: ["seg_back"] },
    ]);
    expect(selectServices([], offer, extrasOf(offer))).toEqual({ services: [], amount: 0 });
  });

  it("prices in the offer's currency, short-haul bags cheaper, no seat selling in business", () => {
    const gbp = roundTrip({ currency: "GBP" });
    const gbpServices = availableExtras(gbp, NETWORK_EXTRAS);
    const bag = gbpServices.find((s) => s.type === "baggage")!;
    const seat = gbpServices.find((s) => s.type === "seat")!;
    expect(selectServices([{ id: bag.id, quantity: 2 }, { id: seat.id, quantity: 1 }], gbp, extrasOf(gbp)).amount).toBe(2 * 4740 + 948);
    const shortHaul = availableExtras(domestic(), NETWORK_EXTRAS).find((s) => s.type === "baggage")!;
    expect(shortHaul.totalAmount).toBe(3500);
    expect(availableExtras(roundTrip({ cabinClass: "business" }), NETWORK_EXTRAS).filter((s) => s.type === "seat")).toEqual([]);
  });

  it("refuses an unknown id (422), an id given twice, and a quantity above the service's maximum, naming the field", () => {
    const bag = find("baggage", "pas_child", "seg_out");
    const seat = find("seat", "pas_child", "seg_out");
    expect(refusedField(() => selectServices([{ id: bag.id, quantity: 1 }, { id: "ase_unknown", quantity: 1 }], offer, extrasOf(offer)), "invalid_field_value")).toBe("services[1].id");
    // Another offer's service is unknown to this one.
    const other = { ...roundTrip(), id: "off_other" };
    expect(refusedField(() => selectServices([{ id: availableExtras(other, NETWORK_EXTRAS)[0]!.id, quantity: 1 }], offer, extrasOf(offer)), "invalid_field_value")).toBe("services[0].id");
    expect(refusedField(() => selectServices([{ id: bag.id, quantity: 1 }, { id: seat.id, quantity: 1 }, { id: bag.id, quantity: 1 }], offer, extrasOf(offer)))).toBe("services[2].id");
    expect(refusedField(() => selectServices([{ id: bag.id, quantity: 3 }], offer, extrasOf(offer)))).toBe("services[0].quantity");
    expect(refusedField(() => selectServices([{ id: bag.id, quantity: 1 }, { id: seat.id, quantity: 2 }], offer, extrasOf(offer)))).toBe("services[1].quantity");
    expect(selectServices([{ id: bag.id, quantity: 2 }], offer, extrasOf(offer)).amount).toBe(12_000);
  });
});

describe("seat services from their ids", () => {
  /** The airline's seat catalogue, no seat of which any booking holds. */
  const catalogue = new SeatCatalogue({ seatsAssigned: async () => new Map() } as unknown as SimulatedBookings);
  const mapsOf = async (offer: StoredOffer, id = offer.id) =>
    (await catalogue.seatMaps({ id, kind: "offer", tenantId: offer.tenantId, currency: offer.currency, slices: offer.payload.slices, passengers: offer.payload.passengers, onSale: true, environment: "sandbox" })).draw();
  const seatOption = async (offer: StoredOffer, id: string, subjectId?: string) => (await catalogue.seatOptions(offer, [id], subjectId)).get(id);
  const seatsOf = (map: SeatMap) =>
    map.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.filter((element): element is SeatElement => element.type === "seat"))));

  it.each(["USD", "GBP"])("resolves every seat a map offers (%s) to its passenger, segment and price, and no other seat's id", async (currency) => {
    const offer = roundTrip({ currency });
    const offered = new Set<string>();
    for (const [segmentIndex, map] of (await mapsOf(offer)).entries()) {
      const segment = offer.payload.slices.flatMap((slice) => slice.segments)[segmentIndex]!;
      for (const seat of seatsOf(map)) {
        for (const service of seat.availableServices) {
          offered.add(service.id);
          expect(await seatOption(offer, service.id)).toEqual({ id: service.id, passengerId: service.passengerId, segmentId: map.segmentId, flightKey: segment.flightKey, designator: seat.designator, totalAmount: service.totalAmount });
          // The same id is another subject's (an order that booked the offer) only if made for it.
          expect(await seatOption(offer, service.id, "ord_other")).toBeUndefined();
        }
        // Seats in other cabins, sold by the airline, or not for this passenger (a lap infant): never resolved.
        for (const [passengerIndex, passenger] of offer.payload.passengers.entries()) {
          const id = seatServiceId(offer.id, { index: segmentIndex, id: segment.id }, { index: passengerIndex, id: passenger.id }, seat.designator);
          if (!offered.has(id)) expect(await seatOption(offer, id), `${seat.designator} for ${passenger.id}`).toBeUndefined();
        }
      }
    }
    expect(offered.size).toBeGreaterThan(0);
    expect(await seatOption(offer, "ase_unknown")).toBeUndefined();
  });
});

// ─── Refunds ───────────────────────────────────────────────────────────────

describe("refund rules", () => {
  const departure = new Date("2026-07-10T17:30:00Z");
  /** Why the one-step refund refuses the order (422 refund_not_allowed), or null. */
  const refundReason = (refunded: Order, now: Date) => {
    const refused = refusal(refunded, "refund", now);
    if (refused) expect(refused.code).toBe("refund_not_allowed");
    return refused?.details.reason ?? null;
  };

  it("allows a refund before the first departure when the fare allows it", () => {
    expect(refundReason(order(roundTrip()), new Date("2026-06-02T00:00:00Z"))).toBeNull();
    expect(refundReason(order(roundTrip()), new Date(departure.getTime() - 1))).toBeNull();
  });

  it("refuses once the first flight has departed (from the very minute), whatever the fare", () => {
    expect(refundReason(order(roundTrip()), departure)).toBe("The first flight departed at 2026-07-10T17:30:00.000Z.");
    expect(refundReason(order(roundTrip()), new Date("2026-07-15T00:00:00Z"))).toMatch(/departed/);
  });

  it("refuses a fare whose conditions do not allow refunds, naming the fare", () => {
    const offer = roundTrip({ refund: { allowed: false, penaltyAmount: null } });
    expect(refundReason(order(offer), new Date("2026-06-02T00:00:00Z"))).toBe("The Economy Light fare is not refundable.");
  });

  const basis = { servicesPaidAfterTicketing: 0, fullRefund: false };

  it("gives back the total less the penalty, never less than nothing", () => {
    expect(refundAmount(order(roundTrip({ refund: { allowed: true, penaltyAmount: 5_000 } })), basis)).toBe(115_000);
    expect(refundAmount(order(roundTrip({ refund: { allowed: true, penaltyAmount: 0 } })), basis)).toBe(120_000);
    expect(refundAmount(order(roundTrip({ refund: { allowed: true, penaltyAmount: null } })), basis)).toBe(120_000);
    expect(refundAmount(order(roundTrip({ refund: { allowed: true, penaltyAmount: 500_000 } })), basis)).toBe(0);
    // The order's total (services booked with it included) is what is refunded from, not the offer's.
    expect(refundAmount(order(roundTrip(), { totalAmount: 130_000 }), basis)).toBe(125_000);
  });

  it("keeps services paid after ticketing; a full refund (the airline cancelled) gives back everything", () => {
    const ticketed = order(roundTrip(), { totalAmount: 130_000 });
    expect(refundAmount(ticketed, { ...basis, servicesPaidAfterTicketing: 10_000 })).toBe(115_000);
    expect(refundAmount(ticketed, { servicesPaidAfterTicketing: 10_000, fullRefund: true })).toBe(130_000);
  });

  it("gives back only the taxes of a non-refundable fare, and nothing for an unpaid hold", () => {
    const offer = roundTrip({ refund: { allowed: false, penaltyAmount: null } });
    const taxed = { ...offer, payload: { ...offer.payload, passengers: offer.payload.passengers.map((passenger) => ({ ...passenger, taxAmount: 7_250 })) } };
    expect(refundAmount(order(taxed), basis)).toBe(7_250 * taxed.payload.passengers.length);
    expect(refundAmount(order(taxed), { servicesPaidAfterTicketing: 10_000, fullRefund: false })).toBe(7_250 * taxed.payload.passengers.length);
    expect(refundAmount(order(roundTrip(), { status: "PENDING" }), basis)).toBe(0);
    expect(refundAmount(order(taxed, { status: "PENDING" }), { ...basis, fullRefund: true })).toBe(0);
  });
});

// ─── Money ─────────────────────────────────────────────────────────────────

describe("money as decimal strings", () => {
  it("knows each currency's minor unit from ICU: USD 2, JPY 0, KWD 3", () => {
    expect(["USD", "EUR", "GBP", "JPY", "KRW", "KWD", "BHD"].map(minorDigits)).toEqual([2, 2, 2, 0, 0, 3, 3]);
  });

  it.each([
    [12345, "USD", "123.45"],
    [5, "USD", "0.05"],
    [0, "USD", "0.00"],
    [-12345, "USD", "-123.45"],
    [-5, "USD", "-0.05"],
    [500, "JPY", "500"],
    [0, "JPY", "0"],
    [-500, "JPY", "-500"],
    [1234, "KWD", "1.234"],
    [7, "KWD", "0.007"],
    [Number.MAX_SAFE_INTEGER, "USD", "90071992547409.91"],
  ])("formatMinor(%d, %s) is %s", (minor, currency, text) => {
    expect(formatMinor(minor, currency)).toBe(text);
  });

  it.each([
    ["123.45", "USD", 12345],
    ["12.5", "USD", 1250],
    ["12", "USD", 1200],
    ["0.01", "USD", 1],
    ["007.50", "USD", 750],
    ["500", "JPY", 500],
    ["1.234", "KWD", 1234],
    ["1.2", "KWD", 1200],
    ["9999999999999.99", "USD", 999_999_999_999_999],
    ["9007199254740.991", "KWD", Number.MAX_SAFE_INTEGER],
  ])("parseMinor(%s, %s) is %d", (text, currency, minor) => {
    expect(parseMinor(text, currency)).toBe(minor);
  });

  it.each([
    ["1.234", "USD", "more decimals than cents"],
    ["500.0", "JPY", "any decimal for a currency without minor unit"],
    ["1.2345", "KWD", "a fourth decimal"],
    ["-1.00", "USD", "a negative amount"],
    ["-0", "JPY", "a negative zero"],
    ["1e3", "USD", "an exponent"],
    ["1E2", "JPY", "an upper-case exponent"],
    ["+1.00", "USD", "a plus sign"],
    [" 1.00", "USD", "a leading space"],
    ["1.00 ", "USD", "a trailing space"],
    ["1,00", "USD", "a decimal comma"],
    ["1.", "USD", "a bare point"],
    [".5", "USD", "no integer part"],
    ["", "USD", "nothing"],
    ["0x10", "USD", "hexadecimal"],
    ["Infinity", "USD", "Infinity"],
    ["NaN", "USD", "NaN"],
    ["10000000000000", "JPY", "more than 13 integer digits"],
    ["9007199254740.992", "KWD", "2^53 minor units, beyond safe integers"],
    ["9999999999999.999", "KWD", "13 integer digits with 3 decimals, beyond safe integers"],
  ])("parseMinor(%s, %s) refuses %s", (text, currency) => {
    expect(parseMinor(text, currency)).toBeNull();
  });

  it("formatMinor and parseMinor round-trip every safe amount in USD, JPY and KWD", () => {
    for (const currency of ["USD", "JPY", "KWD"]) {
      const max = Math.min(Number.MAX_SAFE_INTEGER, 10 ** (13 + minorDigits(currency)) - 1);
      fc.assert(
        fc.property(fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max }), fc.constant(max)), (minor) => {
          const text = formatMinor(minor, currency);
          expect(text).toMatch(minorDigits(currency) === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${minorDigits(currency)}}$`));
          expect(parseMinor(text, currency)).toBe(minor);
        }),
      );
    }
  });

  it("parsing then formatting writes an amount in its currency's canonical form", () => {
    expect(formatMinor(parseMinor("12.5", "USD")!, "USD")).toBe("12.50");
    expect(formatMinor(parseMinor("7", "KWD")!, "KWD")).toBe("7.000");
    expect(formatMinor(parseMinor("0042", "JPY")!, "JPY")).toBe("42");
  });
});

describe("convertMinor", () => {
  it("leaves an amount in its own currency as it is", () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(...Object.keys(USD_RATES)), (minor, currency) => convertMinor(minor, currency, currency) === minor));
  });

  it("converts minor units across minor-unit sizes at the static table", () => {
    expect(convertMinor(10_000, "USD", "JPY")).toBe(15_000); // 100.00 USD → 15000 JPY
    expect(convertMinor(15_000, "JPY", "USD")).toBe(10_000);
    expect(convertMinor(10_000, "USD", "KWD")).toBe(31_000); // 100.00 USD → 31.000 KWD
    expect(convertMinor(31_000, "KWD", "USD")).toBe(10_000);
    expect(convertMinor(10_000, "USD", "GBP")).toBe(7_900);
    expect(convertMinor(100, "JPY", "KWD")).toBe(207); // 100 JPY = 0.6667 USD = 0.20667 KWD
  });

  it("throws for a currency without a rate", () => {
    expect(() => convertMinor(100, "USD", "XAU")).toThrow(/XAU/);
    expect(() => convertMinor(100, "ZZZ", "USD")).toThrow(/ZZZ/);
  });

  it("rounds to the nearest minor unit", () => {
    expect(convertMinor(1, "USD", "EUR")).toBe(1); // 0.92 cent
    expect(convertMinor(3, "USD", "GBP")).toBe(2); // 2.37 pence
    expect(convertMinor(1, "JPY", "USD")).toBe(1); // 0.667 cent
    // Exact halves that binary floating point happens to hold exactly, half up.
    expect(convertMinor(1, "USD", "JPY")).toBe(2); // 1.5 yen
    expect(convertMinor(1, "USD", "KRW")).toBe(14); // 13.5 won
    expect(convertMinor(1, "USD", "SEK")).toBe(11); // 10.5 öre
  });

  // Exact halves, by decimal arithmetic, must round up as the doc comment says; binary floating
  // point makes some of them land just below .5 (0.41 × 150 = 61.499999…).
  it.each([
    [41, "JPY", 62], // 0.41 USD × 150 = 61.5 JPY
    [35, "KRW", 473], // 0.35 × 1350 = 472.5 KRW
    [75, "NZD", 125], // 0.75 × 1.66 = 1.245 NZD
    [43, "SEK", 452], // 0.43 × 10.5 = 4.515 SEK
    [75, "KWD", 233], // 0.75 × 0.31 = 0.2325 KWD
    [3, "ZAR", 56], // 0.03 × 18.5 = 0.555 ZAR
  ])("rounds an exact half up: %d US cents → %s is %d", (usdMinor, currency, expected) => {
    expect(convertMinor(usdMinor, "USD", currency)).toBe(expected);
  });
});

// ─── Idempotency ───────────────────────────────────────────────────────────

/** `value` with the keys of every object, at every depth, in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]));
  return value;
}

describe("canonicalJson and requestFingerprint", () => {
  it("writes object keys sorted at every depth, arrays in their order", () => {
    const input = { b: 1, a: { d: [{ y: 1, x: 2 }, "z"], c: null } };
    expect(canonicalJson(input)).toBe('{"a":{"c":null,"d":[{"x":2,"y":1},"z"]},"b":1}');
    expect(canonicalJson({ a: { c: null, d: [{ x: 2, y: 1 }, "z"] }, b: 1 })).toBe(canonicalJson(input));
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson({ a: 1, skipped: undefined })).toBe('{"a":1}');
    expect(canonicalJson("text")).toBe('"text"');
  });

  it("is independent of key order for any JSON value, and stable when read back", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const canonical = canonicalJson(value);
        expect(canonicalJson(reversedKeys(value))).toBe(canonical);
        expect(canonicalJson(JSON.parse(canonical))).toBe(canonical);
      }),
    );
  });

  it("fingerprints the operation and the input: equal for equal requests, different otherwise", () => {
    const input = { offerId: "off_1", passengers: [{ id: "p1", givenName: "Ada" }], payment: { amount: "10.00", currency: "USD" } };
    const fingerprint = requestFingerprint("graphql createOrder", input);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint("graphql createOrder", reversedKeys(input))).toBe(fingerprint);
    expect(requestFingerprint("graphql ticketOrder", input)).not.toBe(fingerprint);
    expect(requestFingerprint("graphql createOrder", { ...input, passengers: [{ id: "p1", givenName: "Grace" }] })).not.toBe(fingerprint);
    expect(requestFingerprint("graphql createOrder", { ...input, payment: { amount: "10.0", currency: "USD" } })).not.toBe(fingerprint);
    expect(requestFingerprint("POST /v1/air/orders", undefined)).toBe(requestFingerprint("POST /v1/air/orders", null));
  });
});

describe("idempotencyKey", () => {
  const refusal = (work: () => unknown) => {
    try {
      work();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const { code, status, details } = error as AppError;
      return { code, status, field: details.field };
    }
    throw new Error("expected a refusal");
  };

  it("is required where the operation says so: absent, null or empty is idempotency_key_required naming the field", () => {
    for (const absent of [undefined, null, ""]) {
      expect(refusal(() => idempotencyKey(absent, true, "idempotencyKey"))).toEqual({ code: "idempotency_key_required", status: 400, field: "idempotencyKey" });
    }
    for (const absent of [undefined, null]) expect(idempotencyKey(absent, false, "idempotencyKey")).toBeNull();
  });

  it("refuses an empty key where none is required: sent, it must be a key (as /openapi.json states)", () => {
    expect(refusal(() => idempotencyKey("", false, "Idempotency-Key"))).toEqual({ code: "validation_failed", status: 400, field: "Idempotency-Key" });
  });

  it("accepts 1 to 255 printable ASCII characters, a UUID the usual choice", () => {
    for (const key of ["a", "550e8400-e29b-41d4-a716-446655440000", "order 42 retry", "~!@#$%^&*()_+{}|:<>?", "x".repeat(255), "k ".repeat(127) + "k"]) {
      expect(idempotencyKey(key, true, "idempotencyKey")).toBe(key);
    }
  });

  it.each<[unknown, string]>([
    ["x".repeat(256), "256 characters"],
    [" key", "a leading space"],
    ["clé", "a non-ASCII letter"],
    ["key\u00a0", "a non-breaking space"],
    ["🔑", "an emoji"],
    ["key\n", "a newline"],
    ["key\tvalue", "a tab"],
    ["\u007f", "DEL"],
    [42, "a number"],
    [{ key: "k" }, "an object"],
  ])("refuses %j (%s) with validation_failed naming the field", (value) => {
    expect(refusal(() => idempotencyKey(value, false, "Idempotency-Key"))).toEqual({ code: "validation_failed", status: 400, field: "Idempotency-Key" });
  });
});
