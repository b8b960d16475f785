import { AppError, appError } from "../../errors/app-error";
import { SupplierFailed } from "../../gateway/contract/errors";
import { DuffelApiError, DuffelTimeout, DuffelUnreachable } from "./duffel-client";

/**
 * Duffel refused the request (a 4xx: a bad token, an offer gone or repriced, a bad field): it made
 * nothing, so a booking it refused has no Duffel order. A timeout or a 5xx tells nothing of the kind.
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof DuffelApiError && error.status < 500;
}

/** Duffel refused the access token: the connection is no longer good. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof DuffelApiError && error.status === 401;
}

/**
 * A Duffel failure in the catalogue's words, so callers answer as for any other source:
 * - `offer_no_longer_available` (and an accepted order Duffel failed, `order_creation_failed`),
 *   `price_changed`: the catalogue's 422s of the same names; `insufficient_balance` (the tenant's
 *   Duffel balance): 402 `insufficient_balance`; `already_cancelled`: 409 `order_state_conflict`;
 *   `order_not_changeable`: 422 `change_not_allowed`; `unsupported_action`: 422 `unsupported_by_supplier`;
 * - a 504 (Duffel's airlines did not answer in time): 504 `supplier_timeout`;
 * - 401 (a bad or revoked token), 403: 502 `supplier_error` naming the token;
 * - 404: `not_found`; any other 4xx: 422 `invalid_field_value` with Duffel's message;
 * - a timeout, or a rate limit past the deadline: 504 `supplier_timeout`;
 * - a 5xx, no connection, or Duffel's circuit open (SupplierFailed): 502 `supplier_error`.
 */
export function catalogueError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof SupplierFailed) return appError("supplier_error", { reason: `Duffel: ${error.message}` });
  if (error instanceof DuffelTimeout) return appError("supplier_timeout", { reason: error.message });
  if (error instanceof DuffelUnreachable) return appError("supplier_error", { reason: "Duffel could not be reached" });
  if (!(error instanceof DuffelApiError)) throw error;
  const reason = `Duffel: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ""}`;
  switch (error.code) {
    case "offer_no_longer_available":
    case "order_creation_failed":
      return appError("offer_no_longer_available", { reason });
    case "price_changed":
      return appError("price_changed", { message: "Duffel priced the offer again and its total changed.", reason: `${reason}. Read the offer again (or search again) and book at its new total.` });
    case "insufficient_balance":
      return appError("insufficient_balance", { message: "The tenant's Duffel balance cannot cover the order.", reason: `${reason}. Top up the Duffel balance, then try again.` });
    case "already_cancelled":
      return appError("order_state_conflict", { reason: `${reason}: Duffel has the order cancelled already.` });
    case "order_not_changeable":
      return appError("change_not_allowed", { reason });
    case "unsupported_action":
      return appError("unsupported_by_supplier", { reason });
  }
  if (error.status === 504) return appError("supplier_timeout", { reason });
  if (error.status === 401 || error.status === 403) return appError("supplier_error", { reason: `Duffel refused the connection's access token (${error.status}): connect again with a valid token` });
  if (error.status === 404) return appError("not_found", { reason });
  if (error.status < 500) return appError("invalid_field_value", { reason });
  return appError("supplier_error", { reason });
}
