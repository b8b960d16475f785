import { AppError, appError } from "../../errors/app-error";

/**
 * How a supplier says what went wrong. A refusal (SeatsUnavailable, SeatTaken, or the catalogue's
 * 4xx in a remote supplier's words) is an answer: nothing was done, and it is never retried. Any
 * other error may have done the work, and is undone or retried by the caller.
 */

/** The supplier could not answer (a failure of its own, not a rule of ours). */
export class SupplierFailed extends Error {
  override name = "SupplierFailed";
}

/** One attempt of a supplier call took longer than the gateway's call policy allows. */
export class SupplierTimeout extends Error {
  override name = "SupplierTimeout";
  constructor(
    readonly call: string,
    readonly timeoutMs: number,
  ) {
    super(`supplier call ${call} took longer than ${timeoutMs} ms`);
  }
}

/** The search's deadline passed while the supplier was still answering: it stopped. */
export class SearchAbandoned extends SupplierFailed {
  override name = "SearchAbandoned";
}

/**
 * The supplier refused the tenant's own account (a revoked token): the tenant's to put right, not
 * a failure of the supplier, so a search reports it as `error` and no circuit breaker counts it.
 */
export class SupplierAccountRefused extends Error {
  override name = "SupplierAccountRefused";
  constructor(readonly answer: AppError) {
    super(answer.message);
  }
}

/** A flight of the booking has fewer seats left than the booking needs. */
export class SeatsUnavailable extends Error {
  override name = "SeatsUnavailable";
  constructor(readonly flightKey: string) {
    super(`not enough seats left on ${flightKey}`);
  }
}

/** A seat the booking chose (`SupplierBooking.seats[index]`, or a sale's seat) is another booking's, or given twice. */
export class SeatTaken extends Error {
  override name = "SeatTaken";
  constructor(readonly index: number) {
    super(`seat ${index} of the booking is taken`);
  }
}

/** A supplier's refusal, for a reason of its own or in the catalogue's words (a 4xx): nothing was done, it is final, never retried. */
export function isRefusal(error: unknown): boolean {
  return error instanceof SeatsUnavailable || error instanceof SeatTaken || (error instanceof AppError && error.status < 500);
}

/**
 * A failure of the supplier as a client is answered: 504 `supplier_timeout` when it did not
 * answer in time, 502 `supplier_error` when it failed (or its circuit is open); any other error
 * (a refusal in the catalogue's words, one of ours) as it is.
 */
export function inCatalogueWords(error: unknown): unknown {
  if (error instanceof SupplierTimeout || error instanceof SearchAbandoned) return appError("supplier_timeout", { reason: error.message });
  if (error instanceof SupplierFailed) return appError("supplier_error", { reason: error.message });
  return error;
}
