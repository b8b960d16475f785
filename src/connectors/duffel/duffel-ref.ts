import type { AccountTokens } from "../../gateway/contract/connector";
import type { SupplierRef } from "../../gateway/contract/offers";

/** Duffel as the gateway names it: on offers and orders, in `supplier_results`, in tenants' `suppliers` and connections. */
export const DUFFEL: SupplierRef = { id: "duffel", name: "Duffel" };

/** A Duffel access token: `duffel_test_…` or `duffel_live_…`, then the token's own characters. */
const ACCESS_TOKEN = /^duffel_(test|live)_[A-Za-z0-9_\-=+/.]{8,}$/;

/** How a Duffel access token looks: its prefix says its mode (docs/duffel.md#connecting-a-duffel-account). */
export const DUFFEL_TOKENS: AccountTokens = {
  read(token) {
    const mode = ACCESS_TOKEN.exec(token)?.[1];
    if (mode === "test" || mode === "live") return { mode };
    return { problem: "must be a Duffel access token: duffel_test_ or duffel_live_ followed by the token" };
  },
  prefix: (mode) => `duffel_${mode}_`,
};
