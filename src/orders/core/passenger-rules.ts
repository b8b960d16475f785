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
 *   not) valid after the last flight.
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
  return [...byId.values()].sort((a, b) => a.position - b.position);
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
