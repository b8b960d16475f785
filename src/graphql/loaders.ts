import DataLoader from "dataloader";
import { tenantScope, type RequestContext } from "../context/request-context";
import type { Order, OrderDocument, OrderPassenger } from "../orders/order";
import type { StoredOffer } from "../search/offer-payload";

export interface Loaders {
  /** Offers by id within the caller's tenant: every `offer(id:)` in one operation is one query. */
  offer: DataLoader<string, StoredOffer | null>;
  /** Orders by id within the caller's tenant. */
  order: DataLoader<string, Order | null>;
  /** Passengers and documents by order id: one query each for a whole page of orders. */
  orderPassengers: DataLoader<string, OrderPassenger[]>;
  orderDocuments: DataLoader<string, OrderDocument[]>;
}

const perRequest = new WeakMap<RequestContext, Loaders>();

/**
 * The DataLoaders of one GraphQL operation, created on first use. They apply the same tenant
 * scope as every other read: the scope `authorize` resolved for this operation.
 */
export function loadersFor(ctx: RequestContext): Loaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    const { offers, orders } = ctx.services;
    loaders = {
      offer: new DataLoader((ids) => offers.getMany(tenantScope(ctx), ids)),
      order: new DataLoader((ids) => orders.getMany(tenantScope(ctx), ids)),
      orderPassengers: new DataLoader((ids) => orders.passengersOf(tenantScope(ctx), ids)),
      orderDocuments: new DataLoader((ids) => orders.documentsOf(tenantScope(ctx), ids)),
    };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}
