import type { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { Order } from "../core/order";
import { awaitsPayment } from "../core/order-actions";
import type { OrderJobQueue } from "../jobs/order-job-queue";
import type { TenantClock } from "../../tenancy/tenant-clock";
import { clock } from "../../clock";

/** A hold must be paid at least this long before the first departure (the airline tickets by then). */
const LAST_PAYMENT_BEFORE_DEPARTURE_MS = 24 * 60 * 60 * 1000;
/** A booking made later than that gets this long to be paid: in the same sitting, as remote suppliers ask. */
const LAST_MINUTE_HOLD_MS = 15 * 60 * 1000;

/**
 * The hold-deadline rule (docs/rest-api.md#holds-and-payments): a PENDING order keeps its seats
 * until its payment deadline (`paymentDeadline`), and a `payment_deadline` job, queued in the
 * order's creation transaction, cancels it then if unpaid (hold-expiry.ts: the deadlines one claim
 * takes, in one transaction). The job queue makes that durable, leased and shared between
 * processes. Past the deadline the order takes no payment and no services (order-actions.ts).
 */
export class OrderHolds {
  constructor(
    private readonly queue: OrderJobQueue,
    /** ORDER_HOLD_SECONDS: how long a booking is held unpaid. */
    private readonly holdSeconds: number,
  ) {}

  /**
   * When an order booked at `bookedAt` must be paid: `holdSeconds` later, but never later than
   * 24 h before the first departure, nor than the supplier's own deadline for its hold
   * (`supplierDeadline`: a remote supplier's `payment_required_by`); booked within those 24 h, or from an offer
   * that requires instant payment (it cannot be held), 15 minutes later.
   */
  paymentDeadline(bookedAt: Date, firstDepartureUtc: Date, supplier: { requiresInstantPayment?: boolean; supplierDeadline?: Date | null } = {}): Date {
    const lastPayment = firstDepartureUtc.getTime() - LAST_PAYMENT_BEFORE_DEPARTURE_MS;
    if (supplier.requiresInstantPayment || bookedAt.getTime() >= lastPayment) return new Date(bookedAt.getTime() + LAST_MINUTE_HOLD_MS);
    return new Date(Math.min(bookedAt.getTime() + this.holdSeconds * 1000, lastPayment, supplier.supplierDeadline?.getTime() ?? Infinity));
  }

  /**
   * For the order's creation batch: the job that cancels it at `paymentRequiredBy` (on the
   * tenant's clock) if still unpaid. The queue runs on the process clock, so the job is due when
   * the tenant's clock reads the deadline; a sandbox clock moved ahead moves it with it.
   */
  expiry(order: { id: string; tenantId: string }, paymentRequiredBy: Date, tenantClock: TenantClock): Sql.Sql {
    return this.queue.enqueue(order, "payment_deadline", tenantClock.toProcess(paymentRequiredBy), clock.now());
  }

  /** For the creation batch of an order its supplier accepted without confirming it: the job that reads the booking again until the supplier confirms or fails it. */
  confirmation(order: { id: string; tenantId: string }): Sql.Sql {
    const now = clock.now();
    return this.queue.enqueue(order, "confirm_booking", new Date(now.getTime() + FIRST_CONFIRMATION_READ_MS), now);
  }
}

/** When a booking the supplier accepted without confirming it is first read again (its `confirm_booking` job), on the process clock. */
const FIRST_CONFIRMATION_READ_MS = 5_000;

/** Where an order stands with its payment (Variant A's `payment_status`). */
export interface PaymentStatus {
  /** Unpaid and still payable: a PENDING order. */
  awaitingPayment: boolean;
  /** While awaiting payment: the deadline, after which the order is cancelled. */
  paymentRequiredBy: Date | null;
  /** While awaiting payment: until when paying keeps the booked price (the offer's guarantee). */
  priceGuaranteeExpiresAt: Date | null;
  paidAt: Date | null;
}

export function paymentStatus(order: Pick<Order, "status" | "paymentRequiredBy" | "paidAt" | "offer">): PaymentStatus {
  const awaitingPayment = awaitsPayment(order);
  return {
    awaitingPayment,
    paymentRequiredBy: awaitingPayment ? order.paymentRequiredBy : null,
    priceGuaranteeExpiresAt: awaitingPayment ? order.offer.expiresAt : null,
    paidAt: order.paidAt,
  };
}
