import { appError } from "../../errors/app-error";
import { offerSupplier, type StoredOffer } from "../../search/offer-payload";
import { supplierCapabilities, type SupplierCapability } from "../../gateway/contract/capabilities";
import type { TenantClock } from "../../tenancy/tenant-clock";
import type { Order } from "./order";
import { refusal } from "./order-actions";

/** The actions Variant A's `available_actions` lists. */
export type AvailableAction = "cancel" | "change" | "add_services" | "pay" | "select_seats";

/**
 * What the order can be asked now: what its state and fare allow (order-actions.ts) and its
 * supplier does (a low-cost supplier changes no booking; Duffel's orders are paid and cancelled).
 */
export function availableActions(order: Order, now: Date): AvailableAction[] {
  const capabilities = supplierCapabilities(offerSupplier(order.offer.payload).id);
  const allowed = (action: Parameters<typeof refusal>[1]) => refusal(order, action, now) === null;
  const actions: AvailableAction[] = [];
  if (allowed("cancel") || allowed("cancelWithQuote")) actions.push("cancel");
  if (capabilities.has("change") && allowed("change")) actions.push("change");
  if (capabilities.has("add_services") && allowed("addServices")) actions.push("add_services");
  if (allowed("pay")) actions.push("pay");
  if (capabilities.has("select_seats") && allowed("addServices")) actions.push("select_seats");
  return actions;
}

/** Whether the supplier of the offer (booked or not) does `capability`. */
export function supplierDoes(offer: Pick<StoredOffer, "payload">, capability: SupplierCapability): boolean {
  return supplierCapabilities(offerSupplier(offer.payload).id).has(capability);
}

/**
 * 422 `clock_advanced`, naming the supplier, when the tenant's clock runs ahead of real time and
 * the offer's (or order's) supplier cannot run on a moved clock (Duffel: docs/sandbox-clock.md).
 */
export function requireSupplierClock(offer: Pick<StoredOffer, "payload">, clock: TenantClock): void {
  if (clock.offsetMs === 0 || supplierDoes(offer, "moved_clock")) return;
  const supplier = offerSupplier(offer.payload);
  throw appError("clock_advanced", { reason: `The tenant's sandbox clock runs ${Math.round(clock.offsetMs / 1000)} s ahead of real time, and ${supplier.name} (${supplier.id}) runs on real time: reset the clock to use it.` });
}

/** 422 `unsupported_by_supplier`, naming the supplier, unless the order's supplier does `capability`. */
export function requireSupplierCapability(order: Pick<Order, "offer">, capability: SupplierCapability, what: string): void {
  requireOfferSupplierCapability(order.offer, capability, what, "order");
}

/** 422 `unsupported_by_supplier`, naming the supplier, unless the supplier of the offer (or of the order booking it: `subject`) does `capability`. */
export function requireOfferSupplierCapability(offer: Pick<StoredOffer, "payload">, capability: SupplierCapability, what: string, subject: "offer" | "order" = "offer"): void {
  if (supplierDoes(offer, capability)) return;
  const supplier = offerSupplier(offer.payload);
  throw appError("unsupported_by_supplier", { message: `The ${subject}'s supplier ${supplier.id} (${supplier.name}) does not offer ${what}.` });
}
