import { z } from "zod";
import type { PassengerType } from "../../gateway/contract/air";
import { CABIN_CLASSES, type CabinClass } from "../../gateway/contract/air";
import { DUFFEL_EVENT_TYPES, eventTypesOfDuffel } from "./webhook-format";
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from "../../events/webhook-endpoint.inputs";
import { webhookUrlInput } from "../../events/webhook-url";
import type { CreateOrderRequest } from "../../orders/core/order-commands";
import {
  countryCode,
  documentExpiry,
  documentNumber,
  identityDocumentType,
  infantPassengerId,
  loyaltyAccountList,
  loyaltyAccountNumber,
  loyaltyAirlineCode,
  passengerDetailFields,
  passengerId,
  passengerType,
  phoneNumber,
  serviceQuantity,
} from "../../orders/core/passenger-fields";
import type { PaymentRequest } from "../../orders/payment/payment";
import type { ChangeRequestInput } from "../../order-changes/order-change.inputs";
import type { OfferSort } from "../../search/offer.service";
import type { SearchRequest } from "../../search/search.inputs";
import { metadataSchema } from "../../tenants/metadata";
import { ACTIONS_TAKEN, type AirlineChangeActionTaken } from "../../orders/core/airline-change";
import { calendarDate, placeCode, recordId } from "../../validation/input-values";

/**
 * The bodies the official client sends (always under `data`), as Duffel's API reference
 * describes them, and their mapping onto the domain's commands. Fields Duffel defines that have
 * no meaning here (a slice's time windows) are accepted and left aside.
 */

/** Duffel's envelope: `{ data: … }`. */
export const enveloped = <T extends z.ZodType>(data: T) => z.object({ data });

const timeWindow = z.object({ from: z.string(), to: z.string() }).nullable().optional();

const searchPassenger = z
  .object({ type: passengerType.optional(), age: z.number().int().min(0).max(130).optional() })
  .refine((passenger) => passenger.type !== undefined || passenger.age !== undefined, "a passenger needs a type or an age");

export const offerRequestBody = enveloped(
  z.object({
    slices: z
      .array(z.object({ origin: placeCode, destination: placeCode, departure_date: calendarDate, departure_time: timeWindow, arrival_time: timeWindow }))
      .min(1, "at least one slice")
      .max(4, "at most 4 slices"),
    passengers: z.array(searchPassenger).min(1, "at least one passenger").max(9, "at most 9 passengers"),
    cabin_class: z.enum(CABIN_CLASSES as [CabinClass, ...CabinClass[]]).optional(),
    max_connections: z.number().int().min(0).max(2).optional(),
  }),
);

/** `?return_offers=` and `?supplier_timeout=` (milliseconds, as Duffel takes it). */
export const offerRequestQuery = z.object({
  return_offers: z.enum(["true", "false"]).optional(),
  supplier_timeout: z
    .string()
    .regex(/^\d{1,6}$/, "must be a whole number of milliseconds")
    .transform(Number)
    .refine((ms) => ms >= 2000 && ms <= 60000, "must be from 2000 to 60000 milliseconds")
    .optional(),
});

/** A passenger by age, as Duffel allows: under 2 an infant on a lap, under 12 a child (IATA). */
function typeOfAge(age: number): PassengerType {
  if (age < 2) return "infant_without_seat";
  return age < 12 ? "child" : "adult";
}

const DEFAULT_SUPPLIER_TIMEOUT_MS = 20_000;

export function searchCommand(body: z.output<typeof offerRequestBody>, query: z.output<typeof offerRequestQuery>): SearchRequest {
  const search = body.data;
  return {
    slices: search.slices.map((slice) => ({ origin: slice.origin, destination: slice.destination, departureDate: slice.departure_date })),
    passengers: search.passengers.map((passenger) => ({ id: undefined, type: passenger.type ?? typeOfAge(passenger.age!) })),
    cabinClass: search.cabin_class ?? "economy",
    maxConnections: search.max_connections ?? 1,
    returnOffers: query.return_offers !== "false",
    supplierTimeoutMs: query.supplier_timeout ?? DEFAULT_SUPPLIER_TIMEOUT_MS,
    supplierBehaviour: undefined,
    fieldPrefix: "data.",
  };
}

/** Duffel names a document's number `unique_identifier`. */
const identityDocument = z.object({ type: identityDocumentType, unique_identifier: documentNumber, issuing_country_code: countryCode, expires_on: documentExpiry });

const orderPassenger = z.object({
  id: passengerId,
  type: passengerType.optional(),
  ...passengerDetailFields,
  identity_documents: z.array(identityDocument).max(4).optional(),
  loyalty_programme_accounts: loyaltyAccountList(z.object({ airline_iata_code: loyaltyAirlineCode, account_number: loyaltyAccountNumber })).optional(),
  /** On an adult: the infant on their lap. */
  infant_passenger_id: infantPassengerId.optional(),
});

const balancePayment = z.object({ type: z.literal("balance", { message: "only balance payments exist: orders are paid from the wallet" }), currency: z.string(), amount: z.string() });

export const createOrderBody = enveloped(
  z
    .object({
      /** `pay_later` is what the client's own typings call a hold. */
      type: z.enum(["instant", "hold", "pay_later"]).optional(),
      selected_offers: z.array(recordId).length(1, "exactly one offer id"),
      passengers: z.array(orderPassenger).min(1, "at least one passenger").max(9, "at most 9 passengers"),
      payments: z.array(balancePayment).length(1, "exactly one payment").optional(),
      services: z.array(z.object({ id: recordId, quantity: serviceQuantity.optional() })).max(100).optional(),
      metadata: metadataSchema.optional(),
    })
    .refine((order) => order.type === "hold" || order.type === "pay_later" || order.payments !== undefined, { message: "an instant order needs its payment", path: ["payments"] })
    .refine((order) => order.type === undefined || order.type === "instant" || order.payments === undefined, { message: "a hold is paid later, with payments.create", path: ["payments"] }),
);

/** Whether the order is paid as it is booked (Duffel's `instant`). */
export const isInstant = (body: z.output<typeof createOrderBody>) => body.data.payments !== undefined;

export function createOrderCommand(body: z.output<typeof createOrderBody>): CreateOrderRequest {
  const order = body.data;
  const payment = order.payments?.[0];
  return {
    offerId: order.selected_offers[0]!,
    offerField: "selected_offers[0]",
    passengers: order.passengers.map((passenger) => ({
      id: passenger.id,
      type: passenger.type,
      title: passenger.title ?? null,
      givenName: passenger.given_name,
      familyName: passenger.family_name,
      bornOn: passenger.born_on,
      gender: passenger.gender,
      email: passenger.email,
      phoneNumber: passenger.phone_number,
      identityDocuments: (passenger.identity_documents ?? []).map((document) => ({
        type: document.type,
        number: document.unique_identifier,
        issuingCountryCode: document.issuing_country_code,
        expiresOn: document.expires_on,
      })),
      loyaltyProgrammeAccounts: (passenger.loyalty_programme_accounts ?? []).map((account) => ({ airlineIataCode: account.airline_iata_code, accountNumber: account.account_number })),
      infantPassengerId: passenger.infant_passenger_id ?? null,
    })),
    services: (order.services ?? []).map((service) => ({ id: service.id, quantity: service.quantity ?? 1 })),
    payment: payment ? { currency: payment.currency, amount: payment.amount } : null,
    metadata: order.metadata ?? {},
  };
}

export const createPaymentBody = enveloped(z.object({ order_id: recordId, payment: balancePayment }));

export function paymentCommand(body: z.output<typeof createPaymentBody>): PaymentRequest {
  return { orderId: body.data.order_id, payment: body.data.payment };
}

export const createCancellationBody = enveloped(z.object({ order_id: recordId }));

/** `limit` (1–200, default 50), `after`, `before`: Duffel's pagination. */
export const listQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, "must be a whole number")
    .transform(Number)
    .refine((limit) => limit >= 1 && limit <= 200, "must be from 1 to 200")
    .optional(),
  after: z.string().optional(),
  before: z.string().optional(),
});

/** Duffel's event types a webhook may name: those Aerogate sends (docs/duffel-compatible.md#webhooks). */
const webhookEvents = z
  .array(z.string().max(100))
  .min(1, "name at least one event type")
  .max(20)
  .superRefine((types, context) => {
    const unknown = types.find((type) => !DUFFEL_EVENT_TYPES.includes(type));
    if (unknown !== undefined) context.addIssue({ code: "custom", message: `${JSON.stringify(unknown)} is not an event type Aerogate sends: name some of ${DUFFEL_EVENT_TYPES.join(", ")}` });
  })
  .transform(eventTypesOfDuffel);

export const createWebhookBody = enveloped(z.object({ url: webhookUrlInput, events: webhookEvents }));

/** The client sends all three; those it leaves undefined are dropped from the JSON and keep their value. */
export const updateWebhookBody = enveloped(z.object({ url: webhookUrlInput.optional(), events: webhookEvents.optional(), active: z.boolean().optional() }));

export function webhookCommand(body: z.output<typeof createWebhookBody>): CreateWebhookEndpointInput {
  return { url: body.data.url, enabled_events: body.data.events, enabled: true };
}

export function webhookPatch(body: z.output<typeof updateWebhookBody>): UpdateWebhookEndpointInput {
  const { url, events, active } = body.data;
  return { url, enabled_events: events, enabled: active };
}

/**
 * `offers.list`'s own parameters: `sort` by `total_amount` or `total_duration`, ascending, or
 * descending with a leading `-`; `max_connections`. Sorting reads one search's offers, so it
 * needs `offer_request_id`, as Duffel's does.
 */
export const offerListQuery = z
  .object({
    offer_request_id: recordId.optional(),
    sort: z.enum(["total_amount", "-total_amount", "total_duration", "-total_duration"]).optional(),
    max_connections: z
      .string()
      .regex(/^[0-2]$/, "must be 0, 1 or 2")
      .transform(Number)
      .optional(),
  })
  .refine((query) => (query.sort === undefined && query.max_connections === undefined) || query.offer_request_id !== undefined, {
    message: "sort and max_connections need offer_request_id",
    path: ["offer_request_id"],
  });

export function offerSort(query: z.output<typeof offerListQuery>): OfferSort {
  const sort = query.sort ?? "total_amount";
  return { by: sort.endsWith("total_amount") ? "totalAmount" : "totalDuration", descending: sort.startsWith("-"), maxConnections: query.max_connections };
}

/** `orders.update`: Duffel documents `{ data: { metadata } }`; its client sends `{ data: { options: { metadata } } }`. Both are taken. */
export const updateOrderBody = enveloped(z.union([z.object({ metadata: metadataSchema }), z.object({ options: z.object({ metadata: metadataSchema }) })])).transform(
  (body) => ("options" in body.data ? body.data.options.metadata : body.data.metadata),
);

/**
 * `orderChangeRequests.create`: the slices to remove and to add, as Duffel takes them; a slice to
 * add without a `cabin_class` keeps economy, as a search without one does.
 */
export const changeRequestBody = enveloped(
  z.object({
    order_id: recordId,
    slices: z.object({
      remove: z.array(z.object({ slice_id: recordId })).min(1, "at least one slice to remove").max(4),
      add: z
        .array(z.object({ origin: placeCode, destination: placeCode, departure_date: calendarDate, cabin_class: z.enum(CABIN_CLASSES as [CabinClass, ...CabinClass[]]).nullable().optional() }))
        .min(1, "at least one slice to add")
        .max(4),
    }),
  }),
);

export function changeRequestCommand(body: z.output<typeof changeRequestBody>): ChangeRequestInput {
  const { order_id: orderId, slices } = body.data;
  return {
    orderId,
    slices: {
      remove: slices.remove.map((slice) => ({ sliceId: slice.slice_id })),
      add: slices.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departureDate: slice.departure_date, cabinClass: slice.cabin_class ?? "economy" })),
    },
  };
}

export const createChangeBody = enveloped(z.object({ selected_order_change_offer: recordId }));

/** `orderChanges.confirm`: the payment of a change that costs more, from the wallet; none otherwise. */
export const confirmChangeBody = enveloped(z.object({ payment: balancePayment.optional() }));

/** `?order_change_request_id=` of `orderChangeOffers.list`; `?order_id=` of `airlineInitiatedChanges.list`. */
export const changeOffersQuery = z.object({ order_change_request_id: recordId });
export const airlineChangesQuery = z.object({ order_id: recordId });

/** `airlineInitiatedChanges.update`: the answer the tenant gave outside the API. */
export const updateAirlineChangeBody = enveloped(z.object({ action_taken: z.enum(Object.values(ACTIONS_TAKEN) as [AirlineChangeActionTaken, ...AirlineChangeActionTaken[]]) }));
