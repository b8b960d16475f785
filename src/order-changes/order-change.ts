import type { OrderChange as ChangeRow, OrderChangeOffer as OfferRow, OrderChangeRequest as RequestRow } from "../generated/prisma-sqlite/client";
import { exactNumber } from "../db/sql-values";
import type { OfferPayload } from "../search/offer-payload";
import type { CabinClass } from "../gateway/contract/air";

/** How long a change offer can be chosen and confirmed: 15 minutes, as a cancellation quote lives. */
export const CHANGE_OFFER_LIFETIME_MS = 15 * 60 * 1000;

/** What a change request asks (docs/rest-api.md#order-changes): slices of the order to remove, and slices to add in their place. */
export interface ChangeSlices {
  remove: Array<{ sliceId: string }>;
  add: Array<{ origin: string; destination: string; departureDate: string; cabinClass: CabinClass }>;
}

/** A request to change a TICKETED order's slices (`ocr_`), with the offers the airline answered it with. */
export interface OrderChangeRequest {
  id: string;
  orderId: string;
  tenantId: string;
  slices: ChangeSlices;
  /** An airline-initiated change's `change`: its offers carry no penalty, whatever the fare says. */
  noPenalty: boolean;
  createdAt: Date;
  offers: OrderChangeOffer[];
}

/**
 * One priced way to make a change (`oco_`). `removed` is the order's part given up: its removed
 * slices and their share of each passenger's fare and taxes; `added` is the airline's fare for the
 * new slices. Both are in the order's currency, so the changed order is the order less `removed`
 * plus `added` (change-pricing.ts).
 */
export interface OrderChangeOffer {
  id: string;
  changeRequestId: string;
  orderId: string;
  tenantId: string;
  added: OfferPayload;
  removed: OfferPayload;
  /** The order's `updatedAt` when it was priced: confirming a changed order is refused (409). */
  orderVersion: Date;
  noPenalty: boolean;
  /** New fare − old fare + penalty, minor units of `currency`; negative when money comes back. */
  changeTotalAmount: number;
  penaltyAmount: number;
  /** The order's total once changed. */
  newTotalAmount: number;
  currency: string;
  expiresAt: Date;
  createdAt: Date;
  /** The supplier's own id of the offer, when the supplier quoted it (QuotedChanges): what its confirmation names. */
  supplierOfferId?: string;
}

/** A change chosen from an offer (`oce_`): confirming it changes the order once. */
export interface OrderChange {
  id: string;
  orderId: string;
  tenantId: string;
  offer: OrderChangeOffer;
  confirmedAt: Date | null;
  createdAt: Date;
}

/** The offer's payload column: its two parts and what it was priced against. */
interface StoredChangeOffer {
  added: OfferPayload;
  removed: OfferPayload;
  orderVersion: string;
  noPenalty: boolean;
  supplierOfferId?: string;
}

export function storedChangeOffer(offer: OrderChangeOffer): StoredChangeOffer {
  return { added: offer.added, removed: offer.removed, orderVersion: offer.orderVersion.toISOString(), noPenalty: offer.noPenalty, ...(offer.supplierOfferId && { supplierOfferId: offer.supplierOfferId }) };
}

export function changeRequestFrom(row: RequestRow, offers: OrderChangeOffer[]): OrderChangeRequest {
  return { id: row.id, orderId: row.orderId, tenantId: row.tenantId, slices: row.slices as unknown as ChangeSlices, noPenalty: row.noPenalty, createdAt: row.createdAt, offers };
}

export function changeOfferFrom(row: OfferRow): OrderChangeOffer {
  const stored = row.payload as unknown as StoredChangeOffer;
  return {
    id: row.id,
    changeRequestId: row.changeRequestId,
    orderId: row.orderId,
    tenantId: row.tenantId,
    added: stored.added,
    removed: stored.removed,
    orderVersion: new Date(stored.orderVersion),
    noPenalty: stored.noPenalty,
    changeTotalAmount: exactNumber(row.changeTotalAmount),
    penaltyAmount: exactNumber(row.penaltyAmount),
    newTotalAmount: exactNumber(row.newTotalAmount),
    currency: row.currency,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    ...(stored.supplierOfferId && { supplierOfferId: stored.supplierOfferId }),
  };
}

export function orderChangeFrom(row: ChangeRow, offer: OrderChangeOffer): OrderChange {
  return { id: row.id, orderId: row.orderId, tenantId: row.tenantId, offer, confirmedAt: row.confirmedAt, createdAt: row.createdAt };
}

/** The airline's flights (keys) of a payload's slices: what a change holds (added) or gives back (removed). */
export function flightKeysOf(payload: OfferPayload): string[] {
  return payload.slices.flatMap((slice) => slice.segments.map((segment) => segment.flightKey));
}
