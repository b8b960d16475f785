import { z } from "zod";
import type { LoyaltyProgrammeAccount } from "../gateway/contract/air";
import type { IdentityDocument } from "../orders/core/order";
import type { CreateOrderRequest, OrderPassengerRequest, PassengerUpdate } from "../orders/core/order-commands";
import {
  countryCode,
  documentExpiry,
  documentNumber,
  identityDocumentList,
  identityDocumentType,
  infantPassengerId,
  loyaltyAccountList,
  loyaltyAccountNumber,
  loyaltyAirlineCode,
  passengerDetailFields,
  passengerId,
  passengerList,
  passengerType,
  phoneNumber,
  serviceList,
  serviceQuantity,
} from "../orders/core/passenger-fields";
import { balancePayment } from "../orders/payment/payment-rules";
import { metadataSchema } from "../tenants/metadata";
import { recordId } from "../validation/input-values";

/**
 * Booking bodies on /v1 (docs/rest-api.md#orders-and-ticketing), in both variants, and the
 * passenger update: the wire shapes, stating the domain's value rules (passenger-fields.ts), and
 * their mapping onto the orders domain's commands.
 */

const identityDocumentInput = z.strictObject({
  type: identityDocumentType,
  number: documentNumber,
  issuing_country_code: countryCode,
  expires_on: documentExpiry,
});

const loyaltyProgrammeAccountInput = z.strictObject({
  airline_iata_code: loyaltyAirlineCode,
  account_number: loyaltyAccountNumber,
});

/** The fields of a passenger that a client sets; `id` names the search's passenger. */
const passengerFields = {
  ...passengerDetailFields,
  identity_documents: identityDocumentList(identityDocumentInput).optional(),
  loyalty_programme_accounts: loyaltyAccountList(loyaltyProgrammeAccountInput).optional(),
  /** On an adult: the infant (the offer's passenger id) on their lap. */
  infant_passenger_id: infantPassengerId.nullable().optional(),
};

const passengerInput = z.strictObject({
  id: passengerId,
  /** Optional: when sent it must be the offer's type for this passenger. */
  type: passengerType.optional(),
  ...passengerFields,
});

const passengersInput = passengerList(passengerInput);

const servicesInput = serviceList(z.strictObject({ id: recordId, quantity: serviceQuantity.optional() }));

/** Variant A: `selected_offers` (one offer id), `passengers`, `payments`. */
export const createOrderInputA = z.strictObject({
  selected_offers: z.array(recordId).length(1, "exactly one offer id"),
  passengers: passengersInput,
  /** Optional: when sent, it must pay exactly the total (422 payment_amount_mismatch). */
  payments: z.array(balancePayment).length(1, "exactly one payment").optional(),
  services: servicesInput.optional(),
  metadata: metadataSchema.optional(),
});

/** Variant B: `offerId`, `passengers`, `services` (may be empty), `metadata`. */
export const createOrderInputB = z.strictObject({
  offerId: recordId,
  passengers: passengersInput,
  services: servicesInput.optional(),
  metadata: metadataSchema.optional(),
});

/**
 * A passenger update (POST/PUT /v1/air/orders/:id/passengers): each passenger by `id`, with the
 * fields that change. The merged passengers are checked again as at booking.
 */
export const updatePassengersInput = z.strictObject({
  passengers: passengerList(z.strictObject({ id: passengerId, ...z.strictObject(passengerFields).partial().shape })),
});

function identityDocument(input: z.output<typeof identityDocumentInput>): IdentityDocument {
  return { type: input.type, number: input.number, issuingCountryCode: input.issuing_country_code, expiresOn: input.expires_on };
}

function loyaltyProgrammeAccount(input: z.output<typeof loyaltyProgrammeAccountInput>): LoyaltyProgrammeAccount {
  return { airlineIataCode: input.airline_iata_code, accountNumber: input.account_number };
}

function passenger(input: z.output<typeof passengerInput>): OrderPassengerRequest {
  return {
    id: input.id,
    type: input.type,
    title: input.title ?? null,
    givenName: input.given_name,
    familyName: input.family_name,
    bornOn: input.born_on,
    gender: input.gender,
    email: input.email,
    phoneNumber: input.phone_number,
    identityDocuments: (input.identity_documents ?? []).map(identityDocument),
    loyaltyProgrammeAccounts: (input.loyalty_programme_accounts ?? []).map(loyaltyProgrammeAccount),
    infantPassengerId: input.infant_passenger_id ?? null,
  };
}

const services = (input: z.output<typeof servicesInput> | undefined) => (input ?? []).map((service) => ({ id: service.id, quantity: service.quantity ?? 1 }));

export function fromOrderInputA(input: z.output<typeof createOrderInputA>): CreateOrderRequest {
  const payment = input.payments?.[0];
  return {
    offerId: input.selected_offers[0]!,
    offerField: "selected_offers[0]",
    passengers: input.passengers.map(passenger),
    services: services(input.services),
    payment: payment ? { currency: payment.currency, amount: payment.amount } : null,
    metadata: input.metadata ?? {},
  };
}

export function fromOrderInputB(input: z.output<typeof createOrderInputB>): CreateOrderRequest {
  return {
    offerId: input.offerId,
    offerField: "offerId",
    passengers: input.passengers.map(passenger),
    services: services(input.services),
    payment: null,
    metadata: input.metadata ?? {},
  };
}

export function fromUpdatePassengersInput(input: z.output<typeof updatePassengersInput>): PassengerUpdate[] {
  return input.passengers.map((update) => {
    const changes: PassengerUpdate = { id: update.id };
    if (update.title !== undefined) changes.title = update.title;
    if (update.given_name !== undefined) changes.givenName = update.given_name;
    if (update.family_name !== undefined) changes.familyName = update.family_name;
    if (update.born_on !== undefined) changes.bornOn = update.born_on;
    if (update.gender !== undefined) changes.gender = update.gender;
    if (update.email !== undefined) changes.email = update.email;
    if (update.phone_number !== undefined) changes.phoneNumber = update.phone_number;
    if (update.identity_documents !== undefined) changes.identityDocuments = update.identity_documents.map(identityDocument);
    if (update.loyalty_programme_accounts !== undefined) changes.loyaltyProgrammeAccounts = update.loyalty_programme_accounts.map(loyaltyProgrammeAccount);
    if (update.infant_passenger_id !== undefined) changes.infantPassengerId = update.infant_passenger_id;
    return changes;
  });
}
