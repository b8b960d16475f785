import { z } from "zod";
import type { PassengerType } from "../../gateway/contract/air";
import { metadataSchema, type Metadata } from "../../tenants/metadata";
import { recordId } from "../../validation/input-values";
import { checkCommand } from "../../validation/parse-input";
import { paymentValues, type PaymentInput } from "../payment/payment-rules";
import type { PassengerDetails } from "./order";
import {
  birthDate,
  countryCode,
  documentExpiry,
  documentNumber,
  emailAddress,
  identityDocumentList,
  identityDocumentType,
  infantPassengerId,
  loyaltyAccountList,
  loyaltyAccountNumber,
  loyaltyAirlineCode,
  passengerGender,
  passengerId,
  passengerList,
  passengerTitle,
  passengerType,
  personName,
  phoneNumber,
  serviceList,
  serviceQuantity,
} from "./passenger-fields";

/**
 * The orders domain's commands: what booking an offer and changing its passengers take, in the
 * domain's words, whichever surface a client used (REST /v1 in either variant, GraphQL, the
 * compatibility surface of src/compat/). Each transport maps its own shape onto them; the domain checks
 * them by the rules of their values (passenger-fields.ts) and of the offer (passenger-rules.ts).
 */

/** A passenger as an order request names them: the offer's passenger by id, with the details the airline tickets. */
export interface OrderPassengerRequest extends PassengerDetails {
  id: string;
  /** When sent, it must be the offer's type for this passenger. */
  type?: PassengerType | undefined;
}

/** Booking an offer. */
export interface CreateOrderRequest {
  offerId: string;
  /** How the request names the offer, for errors about it (`selected_offers[0]`, `offerId`). */
  offerField: string;
  passengers: OrderPassengerRequest[];
  services: Array<{ id: string; quantity: number }>;
  /** When sent, it must pay exactly the total (422 payment_amount_mismatch). */
  payment: PaymentInput | null;
  metadata: Metadata;
}

/** A change of a passenger's details while the order is pending: the fields that change. */
export type PassengerUpdate = { id: string } & Partial<PassengerDetails>;

const identityDocument = z.object({ type: identityDocumentType, number: documentNumber, issuingCountryCode: countryCode, expiresOn: documentExpiry });

const loyaltyAccount = z.object({ airlineIataCode: loyaltyAirlineCode, accountNumber: loyaltyAccountNumber });

const detailFields = {
  title: passengerTitle.nullable(),
  givenName: personName,
  familyName: personName,
  bornOn: birthDate,
  gender: passengerGender,
  email: emailAddress,
  phoneNumber: phoneNumber,
  identityDocuments: identityDocumentList(identityDocument),
  loyaltyProgrammeAccounts: loyaltyAccountList(loyaltyAccount).optional(),
  infantPassengerId: infantPassengerId.nullable().optional(),
};

const createOrderCommand = z.object({
  offerId: recordId,
  offerField: z.string(),
  passengers: passengerList(z.object({ id: passengerId, type: passengerType.optional(), ...detailFields })),
  services: serviceList(z.object({ id: recordId, quantity: serviceQuantity })),
  payment: paymentValues.nullable(),
  metadata: metadataSchema,
});

const passengerUpdatesCommand = z.object({ passengers: passengerList(z.object({ id: passengerId, ...z.object(detailFields).partial().shape })) });

/** A booking's values by their rules (400 `validation_failed` naming the first field that breaks one), normalised. */
export function checkCreateOrder(request: CreateOrderRequest): CreateOrderRequest {
  return checkCommand(createOrderCommand, request);
}

/** Passenger updates' values by their rules, as at booking, normalised; a field left undefined is one that does not change. */
export function checkPassengerUpdates(updates: readonly PassengerUpdate[]): PassengerUpdate[] {
  return checkCommand(passengerUpdatesCommand, { passengers: [...updates] }).passengers.map((update) => Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) as PassengerUpdate);
}
