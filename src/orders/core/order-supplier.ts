import { appError } from "../../errors/app-error";
import { offerSupplier } from "../../search/offer-payload";
import { supplierCapabilities, type SupplierCapability } from "../../supplier/supplier-capabilities";
import type { Order } from "./order";
import { refusal } from "./order-actions";

/** The actions Variant A's `available_actions` lists. */
export type AvailableAction = "cancel" | "change" | "add_services" | "pay" | "select_seats";

/**
 * What the order can be asked now: what its state and fare allow (order-actions.ts) and its
 * supplier does (a low-cost supplier changes no booking).
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

/** 422 `unsupported_by_supplier`, naming the supplier, unless the order's supplier does `capability`. */
export function requireSupplierCapability(order: Order, capability: SupplierCapability, what: string): void {
  const supplier = offerSupplier(order.offer.payload);
  if (supplierCapabilities(supplier.id).has(capability)) return;
  throw appError("unsupported_by_supplier", { message: `The order's supplier ${supplier.id} (${supplier.name}) does not offer ${what}.` });
}
