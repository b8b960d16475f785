import { databaseFault } from "../../db/errors";
import { AppError } from "../../errors/app-error";
import { isRefusal, SearchAbandoned, SupplierAccountRefused, SupplierTimeout } from "../contract/errors";
import { CircuitOpen } from "./circuit-breaker";

export type CallOutcome = "ok" | "error" | "timeout";

/**
 * How a call that threw ended, as metrics and breakers count it: a deadline passed (`timeout`),
 * a refusal the supplier answered with (`ok`: seats sold out, the catalogue's 4xx in its words, a
 * refused account), or the supplier's failure (`error`).
 */
export function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof SearchAbandoned || error instanceof SupplierTimeout || (error instanceof AppError && error.code === "supplier_timeout")) return "timeout";
  if (isRefusal(error) || error instanceof SupplierAccountRefused) return "ok";
  return "error";
}

/**
 * Whether the error tells nothing of the supplier's health, so that its circuit is left as it
 * was: our own database failed under the call, the tenant's own account was refused (its to put
 * right), or the call was never made (its circuit was open).
 */
export function tellsNothingOfSupplier(error: unknown): boolean {
  return databaseFault(error) !== null || error instanceof SupplierAccountRefused || error instanceof CircuitOpen;
}
