import type { CarrierRef, PassengerType } from "../gateway/contract/air";
import type { OfferConditions, SupplierOfferRef, SupplierSegment } from "../gateway/contract/offers";
import { ORIGINAL_SUPPLIER, type SupplierRef } from "../gateway/contract/offers";
import type { OfferFee } from "../pricing/fee-rules";

/**
 * An offer whole, everything a view or an order needs, priced in the tenant's currency (minor
 * units): as an order's snapshot keeps it, and as a search's stored offers rebuild it
 * (search-answer.ts). Airports are kept as IATA codes and rehydrated from the in-memory index.
 */
export interface OfferPayload {
  /** The supplier that offered it (absent on offers stored before suppliers were named: the simulated network's; see `offerSupplier`). */
  supplier?: SupplierRef;
  owner: CarrierRef;
  fareBrandName: string;
  slices: StoredSlice[];
  /**
   * Each passenger's fare and the taxes inside it. Offers stored before fares were split have
   * no `taxAmount`: all of their fare is base.
   */
  passengers: Array<{ id: string; type: PassengerType; fareAmount: number; taxAmount?: number }>;
  conditions: OfferConditions;
  passengerIdentityDocumentsRequired: boolean;
  /** The supplier's own names for the offer and its total, when booking must send them back (a remote supplier's). */
  supplierOffer?: SupplierOfferRef;
  /** The platform's fee, included in the total (absent: none; an order keeps it in its snapshot, and its refund follows `refundable`). */
  fee?: OfferFee;
}

export interface StoredSlice {
  id: string;
  origin: string;
  destination: string;
  departureDate: string;
  durationMinutes: number;
  segments: StoredSegment[];
}

/** A supplier segment as stored: with an id, airports as IATA codes, local times named as Variant A names them. */
export type StoredSegment = Omit<SupplierSegment, "origin" | "destination" | "departingAtLocal" | "arrivingAtLocal"> & {
  id: string;
  origin: string;
  destination: string;
  /** Local wall times, no offset. */
  departingAt: string;
  arrivingAt: string;
};

/** An offer with its payload typed. */
export interface StoredOffer {
  id: string;
  tenantId: string;
  offerRequestId: string;
  totalAmount: number;
  currency: string;
  expiresAt: Date;
  createdAt: Date;
  payload: OfferPayload;
}

/** The total split as Variant A shows it: taxes (every passenger's together), the platform's fee, and the base fare, the rest. */
export interface PriceSplit {
  baseAmount: number;
  taxAmount: number;
  feeAmount: number;
}

/** `totalAmount` split with the offer's taxes and fee: base + tax + fee is the total exactly. */
export function splitTotal(totalAmount: number, payload: OfferPayload): PriceSplit {
  const taxAmount = payload.passengers.reduce((sum, passenger) => sum + (passenger.taxAmount ?? 0), 0);
  const feeAmount = payload.fee?.amount ?? 0;
  return { baseAmount: totalAmount - taxAmount - feeAmount, taxAmount, feeAmount };
}

/** The supplier that offered it, whenever it was stored. */
export function offerSupplier(payload: Pick<OfferPayload, "supplier">): SupplierRef {
  return payload.supplier ?? ORIGINAL_SUPPLIER;
}
