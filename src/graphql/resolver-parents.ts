import type { Principal } from "../authentication/principal";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { SelectedService } from "../orders/core/order";
import type { StoredOffer, StoredSegment, StoredSlice } from "../search/offer-payload";

/**
 * Parents of the GraphQL types that no domain type already is (codegen.ts maps the rest to domain
 * types). Here rather than beside their resolvers: the generated resolver types import them, and
 * the resolvers import the generated types, so keeping them in a resolver file made a circle.
 */

/** The parent of `Viewer`: who called, and the tenant in scope if any. */
export interface ViewerParent {
  principal: Principal;
  scope: TenantScope | null;
}

/**
 * Slices and segments resolve with their offer's payload at hand (its passengers and fare brand):
 * an offer's, an order's, or an order change's part.
 */
export interface SliceParent {
  slice: StoredSlice;
  offer: Pick<StoredOffer, "payload">;
}

export interface SegmentParent {
  segment: StoredSegment;
  offer: Pick<StoredOffer, "payload">;
}

/** A booked service with its order's currency at hand. */
export type OrderServiceParent = SelectedService & { currency: string };
