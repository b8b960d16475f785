import type { SelectedService } from "../core/order";

/**
 * Services added to a booked order (`osa_…`, docs/rest-api.md#services-after-booking), as one addition: on a PENDING order
 * they join its total, to be paid with it; on a TICKETED one the wallet paid them at once
 * (`paidAt`, ledger `services_debit` with this id as its operation) and each is owed an EMD.
 */
export interface ServiceAddition {
  id: string;
  orderId: string;
  tenantId: string;
  /** The services added, each marked with this addition's id (and, paid, its EMD's document id). */
  services: SelectedService[];
  /** Minor units of `currency` (the order's). */
  totalAmount: number;
  currency: string;
  paidAt: Date | null;
  createdAt: Date;
}
