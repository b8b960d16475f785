import { appError } from "../../errors/app-error";
import type { StoredOffer } from "../../search/offer-payload";
import type { PassengerType } from "../../gateway/contract/air";
import { dayNumber, yearsBetween } from "../../validation/calendar-date";
import { itineraryDates, type PassengerDetails } from "./order";
import type { OrderPassengerRequest } from "./order-commands";

/** A passenger ready to book: the offer's passenger, with the details the client gave. */
export interface BookedPassenger extends PassengerDetails {
  id: string;
  type: PassengerType;
  /** Position in the offer's passenger list. */
  position: number;
}

/** Ages by type (IATA): an adult is 12 or over at the first flight, a child 2 to 11, an infant under 2 on the last. */
const ADULT_FROM = 12;
const CHILD_FROM = 2;

/**
 * Checks the passengers of an order against the offer booked (docs/rest-api.md#booking-and-ticketing, docs/rest-api.md#orders-and-ticketing) and
 * returns them in the offer's order. Each is 400 `validation_failed` naming the field:
 * - every passenger of the offer exactly once, under the id the search gave it (`type`, when
 *   sent, as in the offer);
 * - born in the past, and of the age their type says on the travel dates;
 * - when the itinerary crosses a border, a passport for everyone; every document (required or
 *   not) valid after the last flight;
 * - every infant without a seat on the lap of one adult (`pairInfants`).
 */
export function checkPassengers(passengers: readonly OrderPassengerRequest[], offer: StoredOffer, today: string): BookedPassenger[] {
  const fail = (field: string, message: string) => appError("validation_failed", { field, message: `${field}: ${message}` });
  const { firstDeparture, lastArrival } = itineraryDates(offer);
  const expected = offer.payload.passengers;
  const byId = new Map<string, BookedPassenger>();

  passengers.forEach((input, index) => {
    const at = `passengers[${index}]`;
    const position = expected.findIndex((candidate) => candidate.id === input.id);
    if (position < 0) throw fail(`${at}.id`, `${input.id} is not a passenger of this offer (its passengers are ${expected.map((p) => p.id).join(", ")})`);
    if (byId.has(input.id)) throw fail(`${at}.id`, `${input.id} is given twice`);
    const type = expected[position]!.type;
    if (input.type !== undefined && input.type !== type) throw fail(`${at}.type`, `is ${type} in the offer`);
    checkAge(type, input.bornOn, { today, firstDeparture, lastArrival }, (message) => fail(`${at}.born_on`, message));
    checkDocuments(input, offer.payload.passengerIdentityDocumentsRequired, lastArrival, (field, message) => fail(`${at}.${field}`, message));
    const { id: _id, type: _type, ...details } = input;
    byId.set(input.id, { ...details, id: input.id, type, position });
  });

  const missing = expected.find((candidate) => !byId.has(candidate.id));
  if (missing) throw fail("passengers", `passenger ${missing.id} of the offer is missing`);
  const booked = [...byId.values()].sort((a, b) => a.position - b.position);
  pairInfants(booked, (id) => `passengers[${passengers.findIndex((input) => input.id === id)}].infant_passenger_id`, fail);
  return booked;
}

/**
 * Who holds each infant without a seat (an airline books an infant on an adult's lap): the adult
 * naming it in `infant_passenger_id`, else the first adult holding none, in the offer's order.
 * Sets `infantPassengerId` on every adult (null for one holding none). 400 naming the field when
 * anyone but an adult names an infant, the passenger named is not an infant of the offer, or two
 * adults name the same one.
 */
function pairInfants(passengers: BookedPassenger[], fieldOf: (id: string) => string, fail: (field: string, message: string) => Error): void {
  const infants = new Set(passengers.filter((passenger) => passenger.type === "infant_without_seat").map((passenger) => passenger.id));
  const held = new Set<string>();
  for (const passenger of passengers) {
    const infant = passenger.infantPassengerId ?? null;
    if (infant === null) continue;
    if (passenger.type !== "adult") throw fail(fieldOf(passenger.id), "only an adult holds an infant on their lap");
    if (!infants.has(infant)) throw fail(fieldOf(passenger.id), `${infant} is not an infant without a seat of this offer`);
    if (held.has(infant)) throw fail(fieldOf(passenger.id), `${infant} is held by another adult`);
    held.add(infant);
  }
  const unheld = [...infants].filter((infant) => !held.has(infant));
  for (const passenger of passengers) {
    if (passenger.type !== "adult") {
      passenger.infantPassengerId = null;
      continue;
    }
    passenger.infantPassengerId ??= unheld.shift() ?? null;
  }
}

function checkAge(type: PassengerType, bornOn: string, dates: { today: string; firstDeparture: string; lastArrival: string }, fail: (message: string) => Error): void {
  if (dayNumber(bornOn) > dayNumber(dates.today)) throw fail("must not be in the future");
  const ageAtDeparture = yearsBetween(bornOn, dates.firstDeparture);
  if (type === "adult" && ageAtDeparture < ADULT_FROM) throw fail(`an adult must be ${ADULT_FROM} or older on ${dates.firstDeparture}`);
  if (type === "child" && (ageAtDeparture < CHILD_FROM || ageAtDeparture >= ADULT_FROM)) {
    throw fail(`a child must be ${CHILD_FROM} to ${ADULT_FROM - 1} years old on ${dates.firstDeparture}`);
  }
  if (type === "infant_without_seat" && yearsBetween(bornOn, dates.lastArrival) >= CHILD_FROM) {
    throw fail(`an infant without a seat must be under ${CHILD_FROM} on ${dates.lastArrival}`);
  }
}

function checkDocuments(passenger: PassengerDetails, required: boolean, lastArrival: string, fail: (field: string, message: string) => Error): void {
  passenger.identityDocuments.forEach((document, index) => {
    if (dayNumber(document.expiresOn) <= dayNumber(lastArrival)) {
      throw fail(`identity_documents[${index}].expires_on`, `must be after the last flight (${lastArrival})`);
    }
  });
  if (required && !passenger.identityDocuments.some((document) => document.type === "passport")) {
    throw fail("identity_documents", "a passport is required: the itinerary crosses a border");
  }
}
