import { z } from "zod";
import { balancePayment } from "../orders/payment/payment-rules";
import type { PaymentInput } from "../orders/payment/payment-rules";
import { CABIN_CLASSES, type CabinClass } from "../gateway/contract/air";
import { calendarDate, placeCode } from "../validation/input-values";
import type { ChangeSlices } from "./order-change";

const id = z.string().min(1).max(64);

/** POST /v1/air/order_change_requests (Variant A's shape): the order, the slices to remove and those to add. */
export const changeRequestInput = z.strictObject({
  order_id: id,
  slices: z.strictObject({
    remove: z.array(z.strictObject({ slice_id: id })).min(1, "at least one slice to remove").max(4),
    add: z
      .array(
        z.strictObject({
          origin: placeCode,
          destination: placeCode,
          departure_date: calendarDate,
          cabin_class: z.enum(CABIN_CLASSES as [CabinClass, ...CabinClass[]]),
        }),
      )
      .min(1, "at least one slice to add")
      .max(4),
  }),
});

/** POST /v1/air/order_changes: the offer chosen. */
export const createChangeInput = z.strictObject({ selected_order_change_offer: id });

/** POST /v1/air/order_changes/:id/actions/confirm: the payment of a change that costs more (none needed otherwise). */
export const confirmChangeInput = z.strictObject({ payment: balancePayment.optional() });

export interface ChangeRequestInput {
  orderId: string;
  slices: ChangeSlices;
}

export function fromChangeRequestInput(input: z.output<typeof changeRequestInput>): ChangeRequestInput {
  return {
    orderId: input.order_id,
    slices: {
      remove: input.slices.remove.map((slice) => ({ sliceId: slice.slice_id })),
      add: input.slices.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departureDate: slice.departure_date, cabinClass: slice.cabin_class })),
    },
  };
}

export function fromConfirmChangeInput(input: z.output<typeof confirmChangeInput>): PaymentInput | null {
  return input.payment ?? null;
}
