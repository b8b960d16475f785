import type { PassengerType, SupplierBooking } from "../supplier/supplier";
import type { Order } from "./order";

/** An order as the airline sees it: its flights and cabins as offered, and who travels. */
export function supplierBooking(
  order: Order,
  passengers: ReadonlyArray<{ id: string; type: PassengerType; familyName: string }>,
  environment: "sandbox" | "live",
): SupplierBooking {
  return {
    id: order.id,
    tenantId: order.tenantId,
    environment,
    segments: order.offer.payload.slices.flatMap((slice) =>
      slice.segments.map((segment) => ({
        flightKey: segment.flightKey,
        cabinClass: segment.cabinClass,
        marketingCarrier: segment.marketingCarrier,
        seatsForSale: segment.seatsLeft,
      })),
    ),
    passengers: passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, familyName: passenger.familyName })),
  };
}
