import DataLoader from "dataloader";
import { tenantScope, type RequestContext } from "../context/request-context";
import type { StoredOffer } from "../search/offer-payload";

export interface Loaders {
  /** Offers by id within the caller's tenant: every `offer(id:)` in one operation is one query. */
  offer: DataLoader<string, StoredOffer | null>;
}

const perRequest = new WeakMap<RequestContext, Loaders>();

/**
 * The DataLoaders of one GraphQL operation, created on first use. They apply the same tenant
 * scope as every other read: the scope `authorize` resolved for this operation.
 */
export function loadersFor(ctx: RequestContext): Loaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    loaders = {
      offer: new DataLoader((ids) => ctx.services.offers.getMany(tenantScope(ctx), ids)),
    };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}
