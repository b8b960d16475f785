import { appError } from "../../errors/app-error";
import type { AfterBooking, OrderChanges, QuotedChanges, TicketReissues } from "../../gateway/contract/capabilities";
import type { OrderSuppliers, SupplierSubject } from "../../gateway/contract/gateway";
import { offerSupplier } from "../../search/offer-payload";
import type { TenantClock } from "../../tenancy/tenant-clock";
import type { Order } from "./order";
import { allows, isTicketed, type OrderAction } from "./order-actions";

/** The actions Variant A's `available_actions` lists. */
export type AvailableAction = "cancel" | "change" | "add_services" | "pay" | "select_seats";

/**
 * What the order can be asked now: what its state and fare allow (order-actions.ts) and its
 * supplier declares (its capabilities: a low-cost carrier changes no booking; a supplier with the
 * core alone is paid and cancelled; one selling extras only with the booking takes none after). A capability asked of a supplier without it is refused by the
 * same declaration (OrderSuppliers.require).
 */
export function availableActions(order: Order, now: Date, suppliers: Pick<OrderSuppliers, "does" | "declared">): AvailableAction[] {
  const does = (capability: Parameters<OrderSuppliers["does"]>[1]) => suppliers.does(order.offer.payload, capability);
  const allowed = (action: OrderAction) => allows(order, action, now);
  const actions: AvailableAction[] = [];
  if (allowed("cancel") || allowed("cancelWithQuote")) actions.push("cancel");
  if ((does("quotedChanges") || does("orderChanges")) && allowed("change")) actions.push("change");
  const afterBooking = servicesAfterBooking(order, now, suppliers);
  if (afterBooking !== "none") actions.push("add_services");
  if (allowed("pay")) actions.push("pay");
  if (afterBooking === "extras" && does("seatSelection")) actions.push("select_seats");
  return actions;
}

/**
 * What the order's supplier sells it now after booking (its `services` capability's
 * `afterBooking`): `none` when the order takes no services in its state, or when its supplier
 * sells them only on a ticketed order (`paid_bags`) and it is not ticketed.
 */
export function servicesAfterBooking(order: Order, now: Date, suppliers: Pick<OrderSuppliers, "declared">): AfterBooking {
  const afterBooking = suppliers.declared(order.offer.payload, "services")?.afterBooking ?? "none";
  if (afterBooking === "none" || !allows(order, "addServices", now)) return "none";
  return afterBooking === "paid_bags" && !isTicketed(order) ? "none" : afterBooking;
}

/**
 * 422 `clock_advanced`, naming the supplier, when the tenant's clock runs ahead of real time and
 * the offer's (or order's) supplier cannot run on a moved clock (a remote one: docs/sandbox-clock.md).
 */
export function requireSupplierClock(subject: SupplierSubject, clock: TenantClock, suppliers: Pick<OrderSuppliers, "runsOnMovedClock">): void {
  if (clock.offsetMs === 0 || suppliers.runsOnMovedClock(subject)) return;
  const supplier = offerSupplier(subject);
  throw appError("clock_advanced", { reason: `The tenant's sandbox clock runs ${Math.round(clock.offsetMs / 1000)} s ahead of real time, and ${supplier.name} (${supplier.id}) runs on real time: reset the clock to use it.` });
}

/**
 * How the order's supplier changes a booking, the one rule: a supplier that quotes its own changes
 * (`quotedChanges`, a remote supplier's) is asked for its change offers and confirms them itself;
 * any other is searched for the added slices, its offers priced by us and its new flights held
 * (`orderChanges`). 422 `unsupported_by_supplier` (naming `what`) for a supplier with neither.
 */
export function changePath(subject: SupplierSubject, suppliers: Pick<OrderSuppliers, "declared" | "require">, what: string): { quoted: QuotedChanges } | { searched: OrderChanges } {
  const quoted = suppliers.declared(subject, "quotedChanges");
  return quoted ? { quoted } : { searched: suppliers.require(subject, "orderChanges", what, "order") };
}

/** Whoever changed the order's booking reissues its e-tickets (`changePath`). */
export function ticketReissues(subject: SupplierSubject, suppliers: Pick<OrderSuppliers, "declared" | "require">): TicketReissues {
  const path = changePath(subject, suppliers, "reissued e-tickets");
  return "quoted" in path ? path.quoted : path.searched;
}
