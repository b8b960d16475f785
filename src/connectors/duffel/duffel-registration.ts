import { AppError } from "../../errors/app-error";
import type { Logger } from "../../logger";
import { SupplierAccountRefused } from "../../gateway/contract/supplier";
import { SupplierCallPolicy, SupplierTimeout, type CallPolicy } from "../../gateway/pipeline/call-policy";
import type { CallOutcome, SupplierCalls } from "../../gateway/pipeline/supplier-calls";
import { supplierCapabilities } from "../../gateway/contract/capabilities";
import { SearchAbandoned, withProfile, type SupplierProfile } from "../simulated/latency-profile";
import type { RegisteredSupplier, SupplierRef } from "../../gateway/registry";
import type { DuffelAccounts } from "./duffel-accounts";
import { DuffelSupplier, type DuffelSupplierParts } from "./duffel-supplier";

/** Duffel as the gateway names it: on offers and orders, in `supplier_results`, in tenants' `suppliers`. */
export const DUFFEL_SUPPLIER: SupplierRef = { id: "duffel", name: "Duffel" };

/** Duffel's latency and failures are its own: the profile adds none, and only lets a sandbox search force an outcome (`supplier_behaviour`). */
const AS_IT_ANSWERS: SupplierProfile = { latencyMs: { min: 0, max: 0 }, failureRate: 0 };

/**
 * Duffel as one of the gateway's suppliers (docs/gateway.md, docs/duffel.md): searched only for a
 * tenant with a Duffel connection, as the tenant's own entry (`forTenant`: its account, its
 * token); the calls after booking go to the one process-wide supplier, which finds each order's
 * tenant and Duffel order by our order id. Every call is counted by `calls` (metrics, health)
 * and bounded and retried by `policy` (supplier-call-policy.ts); the search fan-out keeps the
 * Duffel circuit breaker for searches, and `parts.accounts` keeps it around each HTTP exchange of
 * the calls after booking. `searchAccounts` are the tenants' accounts without that breaker. A
 * sandbox search may force Duffel's outcome as any supplier's (`supplier_behaviour`).
 */
export function duffelRegistration(parts: DuffelSupplierParts, searchAccounts: DuffelAccounts, calls: SupplierCalls, policy: CallPolicy, log: Logger): RegisteredSupplier {
  const instrumented = (supplier: DuffelSupplier) => calls.instrument(DUFFEL_SUPPLIER.id, withProfile(new SupplierCallPolicy(supplier, policy, log), AS_IT_ANSWERS), callOutcome);
  return {
    ...DUFFEL_SUPPLIER,
    supplier: instrumented(new DuffelSupplier(parts)),
    capabilities: supplierCapabilities(DUFFEL_SUPPLIER.id),
    needsConnection: true,
    // Duffel's flights are real carriers'; seat-level calls never concern them.
    sellsFlight: () => false,
    async forTenant(tenantId) {
      const account = await searchAccounts.forTenant(tenantId);
      return account && instrumented(new DuffelSupplier(parts, { accounts: searchAccounts, account }));
    },
  };
}

/** A refusal (a 4xx in the catalogue's words, a refused token) is Duffel's answer (`ok`); a deadline passed is `timeout`; anything else is Duffel's `error`. */
function callOutcome(error: unknown): CallOutcome {
  if (error instanceof SupplierTimeout || error instanceof SearchAbandoned || (error instanceof AppError && error.code === "supplier_timeout")) return "timeout";
  if (error instanceof SupplierAccountRefused || (error instanceof AppError && error.status < 500)) return "ok";
  return "error";
}
