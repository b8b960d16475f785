import type { PassengerType, SupplierBooking } from "../../supplier/supplier";
import type { Order } from "./order";

/** An order as the airline sees it: its flights and cabins as offered, who travels, and the seats chosen by designator. */
export function supplierBooking(
  order: Order,
  passengers: ReadonlyArray<{ id: string; type: PassengerType; familyName: string }>,
  environment: "sandbox" | "live",
): SupplierBooking {
  const segments = order.offer.payload.slices.flatMap((slice) => slice.segments);
  const flightKeys = new Map(segments.map((segment) => [segment.id, segment.flightKey]));
  return {
    id: order.id,
    tenantId: order.tenantId,
    environment,
    segments: segments.map((segment) => ({
      flightKey: segment.flightKey,
      cabinClass: segment.cabinClass,
      marketingCarrier: segment.marketingCarrier,
      seatsForSale: segment.seatsLeft,
    })),
    passengers: passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, familyName: passenger.familyName })),
    // In the order of the services, so SeatTaken's index leads back to the request (seatServiceIndex).
    seats: order.services.flatMap((service) =>
      service.designator === undefined ? [] : [{ flightKey: flightKeys.get(service.segmentIds[0]!)!, designator: service.designator }],
    ),
  };
}
