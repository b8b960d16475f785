import { z } from "zod";
import { amountInCurrencyStatement } from "../../money/amount-statement";
import { metadataSchema, type Metadata } from "../../tenants/metadata";
import { calendarDate } from "../../validation/input-values";
import type { LoyaltyProgrammeAccount } from "../../gateway/contract/air";
import type { IdentityDocument, PassengerDetails } from "./order";

/** Letters first, then letters, marks, spaces, hyphens, apostrophes and dots, as names are written on passports. */
const NAME = /^\p{L}[\p{L}\p{M}' .-]*$/u;
/** E.164: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
/** Codes ICU names that are not countries issuing passports. */
const NOT_COUNTRIES = new Set(["ZZ", "EU", "EZ", "UN", "QO"]);

/** An ISO 3166-1 alpha-2 country code ICU knows (from Node's built-in data). */
function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;
}

const LETTERS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
/** Every code `isCountryCode` takes, as the document lists them. */
const COUNTRY_CODES = LETTERS.flatMap((first) => LETTERS.map((second) => first + second)).filter(isCountryCode);

// Trimmed, then checked: whitespace around a name or a number is allowed, as the stated patterns say.
const personName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(NAME, "must be written in letters as on the travel document")
  .meta({ pattern: `^\\s*${NAME.source.slice(1, -1)}\\s*$` });

const identityDocumentInput = z.strictObject({
  type: z.enum(["passport", "national_identity_card"]),
  number: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{5,20}$/, "must be 5 to 20 letters and digits")
    .meta({ pattern: "^\\s*[A-Za-z0-9]{5,20}\\s*$" }),
  issuing_country_code: z.string().refine(isCountryCode, "must be an ISO 3166-1 alpha-2 country code, e.g. GB").meta({ enum: COUNTRY_CODES }),
  expires_on: calendarDate,
});

const loyaltyProgrammeAccountInput = z.strictObject({
  airline_iata_code: z.string().regex(/^[A-Z0-9]{2}$/, "must be an airline's two-character IATA code, e.g. BA"),
  account_number: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,30}$/, "must be 1 to 30 letters and digits")
    .meta({ pattern: "^\\s*[A-Za-z0-9]{1,30}\\s*$" }),
});

/** The fields of a passenger that a client sets (docs/rest-api.md#booking-and-ticketing); `id` names the search's passenger. */
const passengerFields = {
  title: z.enum(["mr", "ms", "mrs", "dr"]).nullable().optional(),
  given_name: personName,
  family_name: personName,
  born_on: calendarDate,
  gender: z.enum(["m", "f"]),
  email: z.email({ message: "must be an e-mail address" }).max(320),
  phone_number: z.string().regex(E164, "must be an E.164 number, e.g. +442080160508"),
  identity_documents: z.array(identityDocumentInput).max(4).optional(),
  loyalty_programme_accounts: z.array(loyaltyProgrammeAccountInput).max(10).optional(),
  /** On an adult: the infant (the offer's passenger id) on their lap. */
  infant_passenger_id: z.string().min(1).max(64).nullable().optional(),
};

const passengerId = z.string().min(1).max(64);

const passengerInput = z.strictObject({
  id: passengerId,
  /** Optional: when sent it must be the offer's type for this passenger. */
  type: z.enum(["adult", "child", "infant_without_seat"]).optional(),
  ...passengerFields,
});

const passengersInput = z.array(passengerInput).min(1, "at least one passenger").max(9, "at most 9 passengers");

const serviceInput = z.strictObject({
  id: z.string().min(1).max(64),
  quantity: z.number().int().min(1).max(9).optional(),
});

const servicesInput = z.array(serviceInput).max(100);

/** A balance payment; its amount is checked against its currency when it is paid (payment-rules.ts). */
export const paymentInput = z
  .strictObject({
    type: z.literal("balance", { message: "only balance payments exist: the order is paid from the wallet" }),
    currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code, e.g. USD"),
    amount: z.string().min(1),
  })
  .meta(amountInCurrencyStatement("amount", "currency"));

/** Variant A (Variant A's shape): `selected_offers` (one offer id), `passengers`, `payments`. */
export const createOrderInputA = z.strictObject({
  selected_offers: z.array(z.string().min(1).max(64)).length(1, "exactly one offer id"),
  passengers: passengersInput,
  /** Optional: when sent, it must pay exactly the total (422 payment_amount_mismatch). */
  payments: z.array(paymentInput).length(1, "exactly one payment").optional(),
  services: servicesInput.optional(),
  metadata: metadataSchema.optional(),
});

/** Variant B: `offerId`, `passengers`, `services` (may be empty), `metadata`. */
export const createOrderInputB = z.strictObject({
  offerId: z.string().min(1).max(64),
  passengers: passengersInput,
  services: servicesInput.optional(),
  metadata: metadataSchema.optional(),
});

/** A passenger as a client sent it, in the domain's names. */
export interface PassengerInput extends PassengerDetails {
  id: string;
  type: "adult" | "child" | "infant_without_seat" | undefined;
}

/** An order request in one shape whatever the variant (or GraphQL) it came in. */
export interface CreateOrderRequest {
  offerId: string;
  /** How the request names the offer, for errors about it (`selected_offers[0]`, `offerId`). */
  offerField: string;
  passengers: PassengerInput[];
  services: Array<{ id: string; quantity: number }>;
  payment: { currency: string; amount: string } | null;
  metadata: Metadata;
}

type ParsedPassenger = z.output<typeof passengerInput>;

function identityDocument(input: z.output<typeof identityDocumentInput>): IdentityDocument {
  return { type: input.type, number: input.number.toUpperCase(), issuingCountryCode: input.issuing_country_code, expiresOn: input.expires_on };
}

function loyaltyProgrammeAccount(input: z.output<typeof loyaltyProgrammeAccountInput>): LoyaltyProgrammeAccount {
  return { airlineIataCode: input.airline_iata_code, accountNumber: input.account_number.toUpperCase() };
}

function passenger(input: ParsedPassenger): PassengerInput {
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

/**
 * A passenger update (POST/PUT /v1/air/orders/:id/passengers): each passenger by `id`, with the
 * fields that change. The merged passengers are checked again as at booking.
 */
export const updatePassengersInput = z.strictObject({
  passengers: z
    .array(z.strictObject({ id: passengerId, ...z.strictObject(passengerFields).partial().shape }))
    .min(1, "at least one passenger")
    .max(9, "at most 9 passengers"),
});

export type PassengerUpdate = { id: string } & Partial<PassengerDetails>;

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
