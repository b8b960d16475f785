import type { AirlineInitiatedChange } from "./airline-change";
import type { Order as OrderRow, OrderDocument as OrderDocumentRow, OrderPassenger as OrderPassengerRow, OrderStatus } from "../../db/models";
import { dateFrom, exactNumber, jsonFrom } from "../../db/sql-values";
import { splitTotal, type PriceSplit, type StoredOffer } from "../../search/offer-payload";
import type { LoyaltyProgrammeAccount, PassengerType, TravelDocument, Traveller } from "../../gateway/contract/air";
import { asMetadata, type Metadata } from "../../tenants/metadata";
import type { Settlement } from "../../gateway/contract/connector";

export type { OrderStatus };

export const ORDER_STATUSES: readonly OrderStatus[] = ["PENDING", "PROCESSING", "TICKETED", "FAILED", "CANCELED", "REFUNDED"];

/** Why an order was cancelled, as `cancellation_reason` shows it. */
export const CANCELLATION_REASONS = ["requested", "payment_deadline_passed", "airline_cancelled"] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** A service booked with the order, priced when it was booked. */
export interface SelectedService {
  id: string;
  type: "baggage" | "seat";
  quantity: number;
  /** Minor units of the order's currency, per unit. */
  unitAmount: number;
  passengerIds: string[];
  segmentIds: string[];
  /** A seat chosen on the seat map (`14C`); absent for bags and for seats chosen without a map. */
  designator?: string;
  /** The addition (`osa_…`) that added it after booking; absent for services booked with the order. */
  additionId?: string;
  /** Added to a TICKETED order and paid then: the id of the EMD document the airline owes for it (the `emd` job issues it). */
  emdId?: string;
}

/** An order (docs/rest-api.md#orders-and-ticketing): the offer as booked, its services, and where it is in its lifecycle. */
export interface Order {
  id: string;
  tenantId: string;
  offerId: string;
  status: OrderStatus;
  /** The offer's total plus the services, minor units of `currency`. */
  totalAmount: number;
  currency: string;
  /** The exact offer booked: its itinerary and prices at booking time. */
  offer: StoredOffer;
  services: SelectedService[];
  metadata: Metadata;
  bookingReference: string;
  failureReason: string | null;
  refundRequestedAt: Date | null;
  /** The hold's deadline (payment/hold-deadline.ts): unpaid by then, the order is cancelled. Null for orders booked before holds expired. */
  paymentRequiredBy: Date | null;
  /** When the wallet paid for it (the ticket action or a payment). */
  paidAt: Date | null;
  /** Why it was cancelled: `requested`, `payment_deadline_passed`, or `airline_cancelled` (its supplier cancelled the hold on its own side). */
  cancellationReason: CancellationReason | null;
  /** Who settles its fare (walletShare): the wallet, or the tenant's own account at the supplier. */
  settlement: Settlement;
  createdAt: Date;
  updatedAt: Date;
}

export type IdentityDocument = TravelDocument;

/**
 * A traveller as booked: the identity the airline tickets (its name and contact as the airline
 * asks for them), travel documents, loyalty programme accounts, and for an adult holding an
 * infant on their lap, the infant's passenger id.
 */
export interface PassengerDetails extends Traveller {
  identityDocuments: IdentityDocument[];
  loyaltyProgrammeAccounts?: LoyaltyProgrammeAccount[];
  infantPassengerId?: string | null;
}

export interface OrderPassenger extends PassengerDetails {
  orderId: string;
  /** The id the search gave the passenger. */
  id: string;
  type: PassengerType;
}

export interface OrderDocument {
  id: string;
  orderId: string;
  passengerId: string;
  /** An e-ticket per passenger; an EMD per service paid after ticketing. */
  type: "electronic_ticket" | "electronic_miscellaneous_document";
  /** The e-ticket's or EMD's 13-digit number. */
  uniqueIdentifier: string;
  createdAt: Date;
}

/** An order with its passengers, documents and the airline's changes to it, as the REST views show it. */
export interface OrderDetail extends Order {
  passengers: OrderPassenger[];
  documents: OrderDocument[];
  /** Oldest first (docs/rest-api.md#airline-initiated-changes). */
  airlineInitiatedChanges: AirlineInitiatedChange[];
}

/** The snapshot is stored as JSON, so its dates come back as ISO text. */
type StoredSnapshot = Omit<StoredOffer, "expiresAt" | "createdAt"> & { expiresAt: string; createdAt: string };

/** An order's row as Prisma reads it, or as a raw read does (queryRows: JSON and dates as text on SQLite). */
export type OrderRecord = Pick<OrderRow, "id" | "tenantId" | "offerId" | "status" | "currency" | "bookingReference" | "failureReason" | "cancellationReason" | "settlement"> &
  Record<"totalAmount" | "offerSnapshot" | "services" | "metadata" | "refundRequestedAt" | "paymentRequiredBy" | "paidAt" | "createdAt" | "updatedAt", unknown>;

const dateOrNull = (value: unknown) => (value === null ? null : dateFrom(value));

export function orderFrom(row: OrderRecord): Order {
  const snapshot = jsonFrom<StoredSnapshot>(row.offerSnapshot);
  return {
    id: row.id,
    tenantId: row.tenantId,
    offerId: row.offerId,
    status: row.status,
    totalAmount: exactNumber(row.totalAmount as bigint | number),
    currency: row.currency,
    offer: { ...snapshot, expiresAt: new Date(snapshot.expiresAt), createdAt: new Date(snapshot.createdAt) },
    services: jsonFrom<SelectedService[]>(row.services),
    metadata: asMetadata(jsonFrom(row.metadata)),
    bookingReference: row.bookingReference,
    failureReason: row.failureReason,
    refundRequestedAt: dateOrNull(row.refundRequestedAt),
    paymentRequiredBy: dateOrNull(row.paymentRequiredBy),
    paidAt: dateOrNull(row.paidAt),
    cancellationReason: row.cancellationReason as CancellationReason | null,
    settlement: row.settlement === "supplier" ? "supplier" : "wallet",
    createdAt: dateFrom(row.createdAt),
    updatedAt: dateFrom(row.updatedAt),
  };
}

/** The order's base fare and taxes: its taxes are the offer's as booked; services added later count as base. */
/**
 * What the wallet pays of an order's `amount` (its total, minor units): all of it when the wallet
 * settles the order; only Aerogate's fee when the supplier settles the fare from the tenant's own
 * account there.
 */
export function walletShare(order: Pick<Order, "settlement" | "totalAmount" | "offer">, amount = order.totalAmount): number {
  return order.settlement === "wallet" ? amount : Math.min(amount, orderPriceSplit(order).feeAmount);
}

export function orderPriceSplit(order: Pick<Order, "totalAmount" | "offer">): PriceSplit {
  return splitTotal(order.totalAmount, order.offer.payload);
}

/** What the services added after ticketing cost: each addition was paid on its own (and is owed its EMDs), not with the order's total. */
export function servicesPaidAfterTicketing(order: Pick<Order, "services">): number {
  return order.services.reduce((sum, service) => (service.emdId === undefined ? sum : sum + service.unitAmount * service.quantity), 0);
}

/** A passenger's row as Prisma reads it, or as a raw read does (identity documents as JSON text on SQLite). */
export type PassengerRecord = Omit<OrderPassengerRow, "identityDocuments" | "loyaltyProgrammeAccounts"> & { identityDocuments: unknown; loyaltyProgrammeAccounts: unknown };

export function passengerFrom(row: PassengerRecord): OrderPassenger {
  return {
    orderId: row.orderId,
    id: row.id,
    type: row.type as PassengerType,
    title: row.title as PassengerDetails["title"],
    givenName: row.givenName,
    familyName: row.familyName,
    bornOn: row.bornOn,
    gender: row.gender as PassengerDetails["gender"],
    email: row.email,
    phoneNumber: row.phoneNumber,
    identityDocuments: jsonFrom<IdentityDocument[]>(row.identityDocuments),
    loyaltyProgrammeAccounts: row.loyaltyProgrammeAccounts === null ? [] : jsonFrom<LoyaltyProgrammeAccount[]>(row.loyaltyProgrammeAccounts),
    infantPassengerId: row.infantPassengerId,
  };
}

export function documentFrom(row: OrderDocumentRow): OrderDocument {
  return {
    id: row.id,
    orderId: row.orderId,
    passengerId: row.passengerId,
    type: row.type as OrderDocument["type"],
    uniqueIdentifier: row.uniqueIdentifier,
    createdAt: row.createdAt,
  };
}

/** Departure of the first flight and arrival of the last, as local dates and the first as an instant. */
export function itineraryDates(offer: StoredOffer): { firstDeparture: string; firstDepartureUtc: Date; lastArrival: string } {
  const segments = offer.payload.slices.flatMap((slice) => slice.segments);
  const first = segments[0];
  const last = segments.at(-1);
  if (!first || !last) throw new Error(`offer ${offer.id} has no segments`);
  // The date part of a local date-time, whatever its year's width.
  const dateOf = (localIso: string) => localIso.split("T")[0]!;
  return { firstDeparture: dateOf(first.departingAt), firstDepartureUtc: new Date(first.departingAtUtc), lastArrival: dateOf(last.arrivingAt) };
}
