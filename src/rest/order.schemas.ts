import { z } from "zod";
import { CANCELLATION_REASONS, ORDER_STATUSES } from "../orders/core/order";
import { decimalAmount, metadataView, okSchema, timestamp } from "./envelope";
import { airlineChangeSchema } from "./airline-change.schemas";
import { offerASchema, passengerType, priceSplitFields, sliceA, supplierRefSchema } from "./offer.schemas";

const orderStatus = z.enum(ORDER_STATUSES).meta({ id: "OrderStatus" });

const passengerSchema = z
  .object({
    id: z.string(),
    type: passengerType,
    title: z.enum(["mr", "ms", "mrs", "dr"]).nullable(),
    given_name: z.string(),
    family_name: z.string(),
    born_on: z.string(),
    gender: z.enum(["m", "f"]),
    email: z.string(),
    phone_number: z.string(),
    identity_documents: z.array(
      z.object({ type: z.enum(["passport", "national_identity_card"]), number: z.string(), issuing_country_code: z.string(), expires_on: z.string() }),
    ),
    loyalty_programme_accounts: z.array(z.object({ airline_iata_code: z.string(), account_number: z.string() })),
    infant_passenger_id: z.string().nullable().meta({ description: "On an adult: the infant without a seat on their lap" }),
  })
  .meta({ id: "Passenger" });

export const documentSchema = z
  .object({
    id: z.string(),
    type: z.enum(["electronic_ticket", "electronic_miscellaneous_document"]).meta({ description: "An e-ticket per passenger; an EMD per service added and paid after ticketing" }),
    unique_identifier: z.string(),
    passenger_id: z.string(),
    url: z.string(),
    issued_at: timestamp,
  })
  .meta({ id: "Document" });

/** Variant A's `payment_status`: a PENDING order is a hold, payable until `payment_required_by`. */
export const paymentStatusSchema = z
  .object({
    awaiting_payment: z.boolean(),
    payment_required_by: timestamp.nullable(),
    price_guarantee_expires_at: timestamp.nullable(),
    paid_at: timestamp.nullable(),
  })
  .meta({ id: "PaymentStatus" });

/** Variant A order (Variant A's names). */
export const orderASchema = z
  .object({
    id: z.string(),
    booking_reference: z.string(),
    status: z.enum(["pending", "confirmed", "failed", "cancelled", "refunded"]),
    ticketing_status: z.enum(["not_started", "in_progress", "ticketed", "failed"]),
    refund_status: z.enum(["refunded", "in_progress"]).nullable(),
    failure_reason: z.string().nullable(),
    cancellation_reason: z.enum(CANCELLATION_REASONS).nullable(),
    settlement: z.enum(["wallet", "supplier"]).meta({
      description: "Who settles the fare: `wallet` (the Aerogate wallet pays the total and gets refunds), or `supplier` (the tenant's own supplier account pays the fare and gets its refunds; the wallet pays only Aerogate's fee)",
    }),
    payment_status: paymentStatusSchema,
    offer_id: z.string(),
    supplier: supplierRefSchema,
    available_actions: z
      .array(z.enum(["cancel", "change", "add_services", "pay", "select_seats"]))
      .meta({ description: "What the order can be asked now: its state and fare allow it, and its supplier does it" }),
    total_amount: decimalAmount,
    total_currency: z.string(),
    ...priceSplitFields,
    passengers: z.array(passengerSchema),
    slices: z.array(sliceA),
    services: z.array(
      z.object({
        id: z.string(),
        type: z.enum(["baggage", "seat"]),
        quantity: z.int(),
        total_amount: decimalAmount,
        total_currency: z.string(),
        passenger_ids: z.array(z.string()),
        segment_ids: z.array(z.string()),
        /** A seat chosen on the seat map (`14C`); null for bags. */
        designator: z.string().nullable(),
      }),
    ),
    documents: z.array(documentSchema),
    airline_initiated_changes: z.array(airlineChangeSchema).meta({ description: "The airline's changes to the order's flights, oldest first (docs/rest-api.md#airline-initiated-changes)" }),
    metadata: metadataView,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "OrderA" });

/** Variant B's order: its lifecycle status, uppercase. */
export const orderBSchema = z.object({ id: z.string(), status: orderStatus, currency: z.string() }).meta({ id: "OrderB" });

/** Variant B's create response, unwrapped. */
export const createdOrderBSchema = z
  .object({
    id: z.string(),
    status: orderStatus,
    totalCents: z.int(),
    currency: z.string(),
    createdAt: timestamp,
    offerId: z.string(),
    bookingReference: z.string(),
  })
  .meta({ id: "CreatedOrderB" });

/** GET /v1/air/orders/:id: both variants at once (docs/rest-api.md#two-interface-variants). */
export const orderDetailSchema = okSchema(orderASchema.extend({ offer: offerASchema }))
  .extend({ order: orderBSchema, offer: z.object({ id: z.string(), total_amount: decimalAmount }) })
  .meta({ id: "OrderDetail" });

/** An e-ticket read at its `url`. */
export const documentDetailSchema = documentSchema
  .extend({ order_id: z.string(), booking_reference: z.string(), passenger_name: z.string().nullable(), slices: z.array(sliceA) })
  .meta({ id: "DocumentDetail" });
