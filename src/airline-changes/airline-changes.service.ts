import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import { queryRows } from "../db/query-rows";
import { sqlEnumList } from "../db/sql-enum";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed, type BatchStatement } from "../db/write-batch";
import { orderEvent } from "../orders/presentation/order-event-payload";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { AirportIndex } from "../locations/airport-index";
import { convertMinor } from "../money/exchange-rates";
import { canReplace } from "../order-changes/change-rules";
import { replaceBooking } from "../order-changes/change-rows";
import { orderFrom, type Order, type OrderRecord } from "../orders/core/order";
import { ORDER_ACTIONS, refusal, requireAllowed } from "../orders/core/order-actions";
import type { OrderCommits } from "../orders/core/order-commits";
import { ORDER_GUARD, touchIn } from "../orders/core/order-state-machine";
import type { OrderService } from "../orders/core/order.service";
import { priceOffer } from "../search/price-offer";
import type { StoredSlice } from "../search/offer-payload";
import { SeatsUnavailable } from "../gateway/contract/errors";
import type { FlightChange } from "../gateway/contract/bookings";
import type { AirlineChanges } from "../gateway/contract/capabilities";
import type { OrderSuppliers, SupplierSearches } from "../gateway/contract/gateway";
import type { SupplierSearch } from "../gateway/contract/offers";
import type { IntentCalls } from "../orders/recovery/intent-calls";
import { CallIntents } from "../orders/recovery/call-intents";
import { dayToIsoDate, localDay } from "../time/local-time";
import { walletChange } from "../wallet/wallet-change";
import type { WalletService } from "../wallet/wallet.service";
import { noPause, type TestPause } from "../test-pause";
import { airlineChangeFrom, type AirlineChangeActionTaken, type AirlineInitiatedChange, type ScheduleChangeKind } from "../orders/core/airline-change";
import { acceptAirlineChange, airlineChangesOf, insertAirlineChange, openAirlineChange } from "../orders/core/airline-change-rows";
import { acceptedChange, retimedSlice, withSlices } from "./schedule-change";

/** Days after the cancelled flight's on which the airline looks for a replacement, in turn. */
const REPLACEMENT_DAYS = [1, 2, 3];

/** Connections allowed on a replacement slice, as a search allows by default. */
const REPLACEMENT_MAX_CONNECTIONS = 1;

/**
 * Airline-initiated changes (docs/rest-api.md#airline-initiated-changes): the airline retimes or cancels a booked flight, each
 * TICKETED order of the tenant flying it gains a change (`aic_`) and the event
 * `order.airline_initiated_change_detected`, in one transaction with each order touched (so a
 * cancellation quote or change offer priced before it is refused, and asked again). The tenant
 * answers it by accepting it here, by cancelling the order (a cancellation quote, which refunds
 * the whole total while the change is open: cancellation.service.ts) or by changing it (a change
 * request without penalty: change-requests.service.ts).
 */
export class AirlineChangeService {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    private readonly wallets: WalletService,
    /** An order's own supplier: its airline changes, and its flights changed under a durable intent (recovery/intent-calls.ts). */
    private readonly suppliers: OrderSuppliers,
    /** An order's own supplier, searched for a replacement flight. */
    private readonly searches: Pick<SupplierSearches, "searchedAt">,
    private readonly calls: IntentCalls,
    private readonly airports: AirportIndex,
    private readonly commits: OrderCommits,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops an acceptance before or after its commit. */
    private readonly pause: TestPause = noPause,
  ) {}

  /**
   * The sandbox trigger: the airline retimes or cancels the order's first flight. `retime`: the
   * same flight 2 h 05 min later (earlier when later breaks a connection). `cancel_flight`: the
   * flight gone, and the airline's proposal for its slice, the same route on one of the next
   * three days (none when it has nothing that fits). Every TICKETED order of the tenant on that
   * flight with no change open is affected; the answer is the order's own change. 404
   * `route_not_found` for a live tenant (the route exists for sandboxes only); 404 `not_found`
   * for an unknown or another tenant's order; 409 `order_state_conflict` unless the order is
   * TICKETED with no refund under way and no change open; 422 `change_not_allowed` once its
   * first flight left; 422 `invalid_field_value` (`kind`) when no retiming keeps every affected
   * order flyable.
   */
  async simulate(scope: TenantScope, orderId: string, kind: ScheduleChangeKind): Promise<AirlineInitiatedChange> {
    if (scope.tenant.environment !== "sandbox") throw appError("route_not_found");
    const order = await this.orders.get(scope, orderId);
    const now = scope.clock.now();
    const airline = this.suppliers.require(order.offer.payload, "airlineChanges", "airline-initiated changes", "order");
    requireAllowed(order, "simulateAirlineChange", now);
    if (await openAirlineChange(this.db, order)) {
      const message = `Order ${order.id} has an airline-initiated change awaiting an answer: accept it, cancel or change the order first.`;
      throw appError("order_state_conflict", { message, reason: message });
    }
    const flightKey = order.offer.payload.slices[0]!.segments[0]!.flightKey;
    const affected = [order, ...(await this.otherOrdersOn(scope, order, flightKey))];
    const made = kind === "retime" ? this.retimed(airline, affected, flightKey, now) : await this.cancelled(scope, affected, flightKey, now);
    try {
      await this.commits.commit(
        affected,
        made.flatMap((change, index) => [touchIn(this.db, affected[index]!, "TICKETED", now, Sql.empty, sameOrder(this.db, affected[index]!)), insertAirlineChange(this.db, change)]),
        made.map((change, index) => orderEvent(affected[index]!, now, { type: "order.airline_initiated_change_detected", change })),
      );
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) throw appError("order_state_conflict", { reason: "An order on the flight changed meanwhile; try again." });
      throw error;
    }
    return made[0]!;
  }

  /**
   * Accepts the change: the order's slices become the added ones, its seats move from the
   * flights left to the new ones, and a seat chosen on a cancelled flight is given back
   * (`change_credit`, once); `order.changed` is emitted. The airline holds the new flights'
   * seats first (a seat exchange keyed by the change, under a durable intent), the acceptance
   * commits, then the airline releases the flights left (docs/supplier-contract.md). The same change for every repeat and
   * racing acceptance. 404 `not_found` for an unknown or another tenant's change; 409
   * `order_state_conflict` once it was answered otherwise, or when the order is no longer
   * TICKETED or is being refunded; 422 `change_not_allowed` when the airline proposed no
   * replacement; 422 `offer_no_longer_available` when a new flight has no seats left.
   */
  async accept(scope: TenantScope, changeId: string): Promise<AirlineInitiatedChange> {
    const change = await this.get(scope, changeId);
    if (change.actionTaken === "accepted") return change;
    if (change.actionTaken !== null) throw answered(change);
    if (change.added.slices.length === 0) {
      throw appError("change_not_allowed", { field: "id", reason: "The airline proposes no replacement for the cancelled flight: cancel the order (a full refund) or change it (no penalty)." });
    }
    const order = await this.orders.get(scope, change.orderId);
    const now = scope.clock.now();
    requireAllowed(order, "acceptAirlineChange", now);
    if (!change.removed.slices.every((removed) => order.offer.payload.slices.some((slice) => slice.id === removed.id))) throw changedSince(order);
    if (change.supplierChangeId !== null) return this.acceptReported(scope, order, change, now);
    const accepted = acceptedChange(order, change);
    const changed: Order = { ...order, offer: accepted.offer, services: accepted.services, totalAmount: accepted.totalAmount, updatedAt: now };
    const exchange = await this.exchangeSeats(scope, order, change, { release: accepted.release, hold: accepted.hold, passengers: order.offer.payload.passengers });
    // A racing acceptance's exchange was under way (settled since), or committed: read the change again.
    if (exchange === "raced") return this.accept(scope, changeId);
    if (exchange === "committed") return this.get(scope, changeId);
    const statements: BatchStatement[] = [
      // First: of racing acceptances, the others wait here for the first's commit and then find it done.
      acceptAirlineChange(this.db, change, now),
      replaceBooking(this.db, order, accepted, now),
      ...(await this.seatRefund(order, change, accepted.refundAmount, now)),
      this.calls.intents.committed(exchange),
    ];
    await this.pause("before_airline_change_commit", { orderId: order.id, airlineInitiatedChangeId: change.id });
    try {
      await this.commits.commit([order], statements, [orderEvent(changed, now, { type: "order.changed", airlineChange: { id: change.id, refundAmount: accepted.refundAmount, currency: order.currency } })]);
    } catch (error) {
      // The acceptance did not commit: the seats held on the new flights go back on sale.
      await this.calls.undo(exchange);
      if (!(error instanceof GuardFailed)) throw error;
      const settled = await this.get(scope, changeId);
      if (settled.actionTaken === "accepted") return settled;
      if (settled.actionTaken !== null) throw answered(settled);
      if (error.guard === ORDER_GUARD) {
        const current = await this.orders.get(scope, order.id);
        throw refusal(current, "acceptAirlineChange", now) ?? changedSince(current);
      }
      if (CallIntents.tookOver(error)) throw appError("service_unavailable", { reason: "The acceptance took too long and was not made; nothing changed. Try again." });
      throw error;
    }
    await this.pause("after_airline_change_commit", { orderId: order.id, airlineInitiatedChangeId: change.id });
    await this.calls.finish(exchange);
    return { ...change, actionTaken: "accepted", updatedAt: now };
  }

  /**
   * A change the order's supplier reported, accepted: at the supplier first (a remote call, safe
   * to repeat, outside any transaction), then here, once (`applyAccepted`). Racing acceptances
   * all ask the supplier; one commits, the others find the change accepted. One whose commit was
   * lost is accepted again by a repeat, or by the next reading of the supplier's changes.
   */
  private async acceptReported(scope: TenantScope, order: Order, change: AirlineInitiatedChange, now: Date): Promise<AirlineInitiatedChange> {
    const reports = this.suppliers.require(order.offer.payload, "reportedChanges", "airline-initiated changes", "order");
    await reports.acceptReportedChange({ id: order.id, tenantId: order.tenantId, environment: scope.tenant.environment }, change.supplierChangeId!);
    try {
      await this.applyAccepted({ order, now }, change);
    } catch (error) {
      if (!(error instanceof GuardFailed)) throw error;
      const settled = await this.get(scope, change.id);
      if (settled.actionTaken === "accepted") return settled;
      if (settled.actionTaken !== null) throw answered(settled);
      const current = await this.orders.get(scope, order.id);
      throw refusal(current, "acceptAirlineChange", now) ?? changedSince(current);
    }
    return { ...change, actionTaken: "accepted", updatedAt: now };
  }

  /**
   * Commits a reported change's acceptance (made at the supplier): the order's slices become the
   * added ones, `order.changed` emitted; nothing moves in the wallet (the supplier's change is
   * not repriced, and a seat it dropped is its own to refund). Throws GuardFailed when the change
   * was answered or the order changed meanwhile.
   */
  async applyAccepted({ order, now }: { order: Order; now: Date }, change: AirlineInitiatedChange): Promise<void> {
    const accepted = acceptedChange(order, change);
    const changed: Order = { ...order, offer: accepted.offer, services: accepted.services, updatedAt: now };
    await this.commits.commit(
      [order],
      [acceptAirlineChange(this.db, change, now), replaceBooking(this.db, order, changed, now)],
      [orderEvent(changed, now, { type: "order.changed", airlineChange: { id: change.id, refundAmount: 0, currency: order.currency } })],
    );
  }

  /**
   * Records that the tenant answered the change outside the API (`accepted`, `cancelled` or
   * `changed` with the airline directly): the change closes with that answer and nothing else of
   * the order changes, but the order is touched, so a cancellation quote or change offer priced
   * while the change was open (a full refund, no penalty) is refused and priced again. The same
   * change for a repeat of the same answer; 404 `not_found` for an unknown or another tenant's
   * change; 409 `order_state_conflict` once it was answered otherwise, or when the order is no
   * longer TICKETED or is being refunded.
   */
  async recordAction(scope: TenantScope, changeId: string, actionTaken: AirlineChangeActionTaken): Promise<AirlineInitiatedChange> {
    const change = await this.get(scope, changeId);
    if (change.actionTaken === actionTaken) return change;
    if (change.actionTaken !== null) throw answered(change);
    const order = await this.orders.get(scope, change.orderId);
    const now = scope.clock.now();
    requireAllowed(order, "acceptAirlineChange", now);
    try {
      await this.commits.commit([order], [acceptAirlineChange(this.db, change, now, actionTaken), touchIn(this.db, order, "TICKETED", now, Sql.empty, sameOrder(this.db, order))]);
    } catch (error) {
      if (!(error instanceof GuardFailed)) throw error;
      const settled = await this.get(scope, changeId);
      if (settled.actionTaken === actionTaken) return settled;
      if (settled.actionTaken !== null) throw answered(settled);
      const current = await this.orders.get(scope, order.id);
      throw refusal(current, "acceptAirlineChange", now) ?? changedSince(current);
    }
    return { ...change, actionTaken, updatedAt: now };
  }

  /**
   * The accepted change's new flights held by the order's supplier, under an intent keyed by the
   * change (IntentCalls.change). 422 `offer_no_longer_available` when a new flight has too few seats left.
   */
  private async exchangeSeats(scope: TenantScope, order: Order, change: AirlineInitiatedChange, exchange: FlightChange) {
    const booking = { id: order.id, tenantId: order.tenantId, environment: scope.tenant.environment };
    const changes = this.suppliers.require(order.offer.payload, "orderChanges", "airline-initiated changes", "order");
    try {
      return await this.calls.change(booking, change.id, exchange.release, () => changes.changeFlights(booking, change.id, exchange), async () => (await this.get(scope, change.id)).actionTaken === "accepted");
    } catch (error) {
      if (error instanceof SeatsUnavailable) throw appError("offer_no_longer_available", { field: "id", reason: `Flight ${error.flightKey} has too few seats left: cancel or change the order instead.` });
      throw error;
    }
  }

  /** A change; 404 `not_found` for an unknown id or another tenant's. */
  async get(scope: TenantScope, changeId: string): Promise<AirlineInitiatedChange> {
    const row = await this.db.prisma.airlineInitiatedChange.findFirst({ where: { id: changeId, tenantId: scope.tenantId } });
    if (!row) throw appError("not_found", { field: "id" });
    return airlineChangeFrom(row);
  }

  /** The changes of each order, oldest first (one query for a whole page of orders: GraphQL's loader). */
  ofOrders(scope: TenantScope, orderIds: readonly string[]): Promise<AirlineInitiatedChange[][]> {
    return airlineChangesOf(this.db.prisma, scope.tenantId, orderIds);
  }

  /**
   * The tenant's other orders that fly the flight and can have an airline-initiated change: in a
   * state the change applies to (order-actions.ts: TICKETED), not being refunded, no change open.
   */
  private async otherOrdersOn(scope: TenantScope, order: Order, flightKey: string): Promise<Order[]> {
    const snapshot = this.db.provider === "postgresql" ? Sql.sql`"offerSnapshot"::text` : Sql.sql`"offerSnapshot"`;
    const rows = await queryRows<OrderRecord>(
      this.db,
      Sql.sql`SELECT * FROM "Order" WHERE "tenantId" = ${scope.tenantId} AND "status" IN (${sqlEnumList(this.db.provider, "OrderStatus", ORDER_ACTIONS.simulateAirlineChange.from)})
        AND "refundRequestedAt" IS NULL AND "id" <> ${order.id} AND ${snapshot} LIKE ${`%${flightKey}%`}
        AND NOT EXISTS (SELECT 1 FROM "AirlineInitiatedChange" WHERE "tenantId" = "Order"."tenantId" AND "orderId" = "Order"."id" AND "actionTaken" IS NULL)`,
    );
    return rows.map(orderFrom).filter((other) => sliceWith(other, flightKey) !== undefined);
  }

  /** Each order's change when the airline retimes the flight: its slice with the flight at the new times. */
  private retimed(airline: AirlineChanges, orders: Order[], flightKey: string, now: Date): AirlineInitiatedChange[] {
    const times = airline.retimeFlight(flightKey, orders.map((order) => order.offer.payload.slices), now);
    if (!times) throw appError("invalid_field_value", { field: "kind", message: `kind: the airline cannot retime flight ${flightKey} and keep every booking on it flyable: simulate cancel_flight instead.` });
    return orders.map((order) => {
      const slice = sliceWith(order, flightKey)!;
      return newChange(order, slice, [retimedSlice(slice, flightKey, times)], now);
    });
  }

  /** Each order's change when the airline cancels the flight: its slice removed, the airline's replacement (if any) added. */
  private async cancelled(scope: TenantScope, orders: Order[], flightKey: string, now: Date): Promise<AirlineInitiatedChange[]> {
    return Promise.all(
      orders.map(async (order) => {
        const slice = sliceWith(order, flightKey)!;
        const replacement = await this.replacement(scope, order, slice);
        return newChange(order, slice, replacement ? [replacement] : [], now);
      }),
    );
  }

  /**
   * The airline's proposal for a slice whose flight it cancelled: the same route in the same
   * cabin on the first of the next days where it sells a flight that fits the order (its own
   * airline, no flight the order holds, between the order's other slices), cheapest first.
   */
  private async replacement(scope: TenantScope, order: Order, slice: StoredSlice): Promise<StoredSlice | null> {
    const origin = this.airports.getByIata(slice.origin);
    const destination = this.airports.getByIata(slice.destination);
    if (!origin || !destination) return null;
    for (const days of REPLACEMENT_DAYS) {
      const search: SupplierSearch = {
        slices: [{ origins: [origin], destinations: [destination], departureDate: dayToIsoDate(localDay(slice.departureDate) + days) }],
        passengers: order.offer.payload.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type })),
        cabinClass: slice.segments[0]!.cabinClass,
        maxConnections: REPLACEMENT_MAX_CONNECTIONS,
        tenantId: scope.tenantId,
        environment: scope.tenant.environment,
      };
      const offers = await this.searches.searchedAt(order.offer.payload).search(search);
      const fitting = offers.find((offer) => canReplace(offer, order, new Set([slice.id])));
      if (fitting) return priceOffer(fitting, order.currency).payload.slices[0]!;
    }
    return null;
  }

  /** The credit of seats dropped with a cancelled flight, in the wallet's currency, once per change (none when there are none). */
  private async seatRefund(order: Order, change: AirlineInitiatedChange, amount: number, at: Date): Promise<BatchStatement[]> {
    if (amount === 0) return [];
    const wallet = await this.wallets.get(order.tenantId);
    const credit = convertMinor(amount, order.currency, wallet.currency);
    return walletChange(this.db, { tenantId: order.tenantId, type: "change_credit", amount: credit, currency: wallet.currency, orderId: order.id, reference: change.id, operationId: change.id, at }).statements;
  }
}

/** The order's slice that flies the flight. */
function sliceWith(order: Order, flightKey: string): StoredSlice | undefined {
  return order.offer.payload.slices.find((slice) => slice.segments.some((segment) => segment.flightKey === flightKey));
}

function newChange(order: Order, removed: StoredSlice, added: StoredSlice[], now: Date): AirlineInitiatedChange {
  return {
    id: newId("aic", now.getTime()),
    orderId: order.id,
    tenantId: order.tenantId,
    removed: withSlices(order.offer.payload, [removed]),
    added: withSlices(order.offer.payload, added),
    actionTaken: null,
    supplierChangeId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The order's guard's condition: as it was read (no refund asked, nothing changed since). */
function sameOrder(db: Database, order: Order): Sql.Sql {
  return Sql.sql`AND "refundRequestedAt" IS NULL AND "updatedAt" = ${sqlTimestamp(db.provider, order.updatedAt)}`;
}

/** 409 `order_state_conflict`: the order no longer is as the change found it (its slices changed, or it changed meanwhile). */
function changedSince(order: Order) {
  const message = `Order ${order.id} changed since this airline-initiated change was read; read the order and try again.`;
  return appError("order_state_conflict", { message, reason: message });
}

/** 409 `order_state_conflict`: the change was answered otherwise (the order cancelled or changed). */
function answered(change: AirlineInitiatedChange) {
  const message = `Airline-initiated change ${change.id} was answered already (${change.actionTaken}); only an open change can be answered.`;
  return appError("order_state_conflict", { message, reason: message });
}
