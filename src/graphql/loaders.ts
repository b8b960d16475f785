import DataLoader from "dataloader";
import { tenantScope, type RequestContext } from "../context/request-context";
import type { AirlineInitiatedChange } from "../orders/core/airline-change";
import type { Order, OrderDocument, OrderPassenger } from "../orders/core/order";
import type { StoredOffer } from "../search/offer-payload";

export interface Loaders {
  /** Offers by id within the caller's tenant: every `offer(id:)` in one operation is one query. */
  offer: DataLoader<string, StoredOffer | null>;
  /** Orders by id within the caller's tenant. */
  order: DataLoader<string, Order | null>;
  /** Passengers and documents by order id: one query each for a whole page of orders. */
  orderPassengers: DataLoader<string, OrderPassenger[]>;
  orderDocuments: DataLoader<string, OrderDocument[]>;
  /** Airline-initiated changes by order id, one query for a page of orders. */
  orderAirlineChanges: DataLoader<string, AirlineInitiatedChange[]>;
}

/**
 * The DataLoaders of one GraphQL operation, each created on first use (an operation usually
 * needs one of them). They apply the same tenant scope as every other read: the scope
 * `authorize` resolved for this operation.
 */
class OperationLoaders implements Loaders {
  #offer?: Loaders["offer"];
  #order?: Loaders["order"];
  #orderPassengers?: Loaders["orderPassengers"];
  #orderDocuments?: Loaders["orderDocuments"];
  #orderAirlineChanges?: Loaders["orderAirlineChanges"];

  constructor(private readonly ctx: RequestContext) {}

  get offer() {
    return (this.#offer ??= new DataLoader((ids) => this.ctx.services.offers.getMany(tenantScope(this.ctx), ids)));
  }

  get order() {
    return (this.#order ??= new DataLoader((ids) => this.ctx.services.orders.getMany(tenantScope(this.ctx), ids)));
  }

  get orderPassengers() {
    return (this.#orderPassengers ??= new DataLoader((ids) => this.ctx.services.orders.passengersOf(tenantScope(this.ctx), ids)));
  }

  get orderDocuments() {
    return (this.#orderDocuments ??= new DataLoader((ids) => this.ctx.services.orders.documentsOf(tenantScope(this.ctx), ids)));
  }

  get orderAirlineChanges() {
    return (this.#orderAirlineChanges ??= new DataLoader((ids) => this.ctx.services.airlineChanges.ofOrders(tenantScope(this.ctx), ids)));
  }
}

const perRequest = new WeakMap<RequestContext, Loaders>();

export function loadersFor(ctx: RequestContext): Loaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) perRequest.set(ctx, (loaders = new OperationLoaders(ctx)));
  return loaders;
}
