import { dateFrom, jsonFrom } from "../../db/sql-values";
import type { OfferPayload } from "../../search/offer-payload";

/** What the sandbox trigger makes the airline do to an order's first flight (docs/rest-api.md#airline-initiated-changes). */
export const SCHEDULE_CHANGE_KINDS = ["retime", "cancel_flight"] as const;
export type ScheduleChangeKind = (typeof SCHEDULE_CHANGE_KINDS)[number];

/** What a tenant can do about a change: take it, cancel the order for a full refund, or change it without penalty. */
export type AirlineChangeAction = "accept" | "cancel" | "change";

/** The answer recorded on a change, and the action that gives it. */
export const ACTIONS_TAKEN = { accept: "accepted", cancel: "cancelled", change: "changed" } as const satisfies Record<AirlineChangeAction, string>;
export type AirlineChangeActionTaken = (typeof ACTIONS_TAKEN)[AirlineChangeAction];

/**
 * A change the airline made to a booked flight (`aic_`, docs/rest-api.md#airline-initiated-changes). `removed` is the order's
 * part the change takes away (its slices as booked), `added` what the airline puts in its place:
 * the flight retimed, or its proposed replacement (no slices when it has none). Both carry the
 * order's fare (passengers, brand, conditions): the airline's change is not repriced.
 */
export interface AirlineInitiatedChange {
  id: string;
  orderId: string;
  tenantId: string;
  removed: OfferPayload;
  added: OfferPayload;
  /** Null until the tenant answers it. */
  actionTaken: AirlineChangeActionTaken | null;
  /** The supplier's own id of a change it reported (a remote airline's, reported-changes.ts); null for a change our own airline made. */
  supplierChangeId: string | null;
  createdAt: Date;
  /** When it was answered, once answered (nothing else changes a change). */
  updatedAt: Date;
}

/**
 * What the tenant can still do: nothing once answered; otherwise cancel or change, and accept
 * when the airline proposes a replacement. Cancelling (an order cancellation quote) refunds the
 * whole total and changing (an order change request) costs no penalty while the change is open.
 */
export function availableActions(change: Pick<AirlineInitiatedChange, "actionTaken" | "added">): AirlineChangeAction[] {
  if (change.actionTaken !== null) return [];
  return change.added.slices.length > 0 ? ["accept", "cancel", "change"] : ["cancel", "change"];
}

/** A change's row as Prisma reads it, or as a raw read does (JSON and dates as text on SQLite). */
export type AirlineChangeRecord = Record<"id" | "orderId" | "tenantId", string> & { actionTaken: string | null; supplierChangeId: string | null } & Record<"removed" | "added" | "createdAt" | "updatedAt", unknown>;

export function airlineChangeFrom(row: AirlineChangeRecord): AirlineInitiatedChange {
  return {
    id: row.id,
    orderId: row.orderId,
    tenantId: row.tenantId,
    removed: jsonFrom<OfferPayload>(row.removed),
    added: jsonFrom<OfferPayload>(row.added),
    actionTaken: row.actionTaken as AirlineChangeActionTaken | null,
    supplierChangeId: row.supplierChangeId,
    createdAt: dateFrom(row.createdAt),
    updatedAt: dateFrom(row.updatedAt),
  };
}
