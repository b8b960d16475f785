import { appError } from "../errors/app-error";
import { availableServices } from "../search/available-services";
import type { StoredOffer } from "../search/offer-payload";
import type { SeatOption } from "../seats/seat-catalogue";
import type { SelectedService } from "./order";

/**
 * The services a client asked to book with the offer, checked and priced: each must be one of
 * the offer's available services (GET /v1/air/offers/:id?return_available_services=true) or a
 * seat of its seat maps (`seatOption` resolves such an id), at most once, within its maximum
 * quantity (1 for a seat), with at most one seat per passenger and segment. An id the offer
 * does not offer (unknown, another offer's, or for a passenger who may not have it) is 422
 * `invalid_field_value` naming the field; the other refusals are 400 `validation_failed`
 * naming it; a seat chosen twice is 422 `seat_unavailable`.
 */
export function selectServices(
  selections: ReadonlyArray<{ id: string; quantity: number }>,
  offer: StoredOffer,
  seatOption: (id: string) => SeatOption | undefined,
): { services: SelectedService[]; amount: number } {
  if (selections.length === 0) return { services: [], amount: 0 };
  const offered = new Map(availableServices(offer).map((service) => [service.id, service]));
  const seen = new Set<string>();
  const seated = new Set<string>();
  const chosenSeats = new Set<string>();
  const services = selections.map((selection, index): SelectedService => {
    const field = `services[${index}].id`;
    const fail = (name: string, message: string) => appError("validation_failed", { field: `services[${index}].${name}`, message: `services[${index}].${name}: ${message}` });
    const service = offered.get(selection.id);
    const seat = service ? undefined : seatOption(selection.id);
    if (!service && !seat) throw appError("invalid_field_value", { field, message: `${field}: ${selection.id} is not a service of this offer for its passengers` });
    if (seat && chosenSeats.has(`${seat.segmentId} ${seat.designator}`)) {
      throw appError("seat_unavailable", { field, reason: `Seat ${seat.designator} is chosen twice in this request.` });
    }
    if (seen.has(selection.id)) throw fail("id", `${selection.id} is given twice`);
    seen.add(selection.id);
    const maximum = service ? service.maximumQuantity : 1;
    if (selection.quantity > maximum) throw fail("quantity", `at most ${maximum}`);
    const selected: SelectedService = seat
      ? { id: seat.id, type: "seat", quantity: 1, unitAmount: seat.totalAmount, passengerIds: [seat.passengerId], segmentIds: [seat.segmentId], designator: seat.designator }
      : { id: service!.id, type: service!.type, quantity: selection.quantity, unitAmount: service!.totalAmount, passengerIds: service!.passengerIds, segmentIds: service!.segmentIds };
    if (selected.type === "seat") {
      const place = `${selected.passengerIds[0]} ${selected.segmentIds[0]}`;
      if (seated.has(place)) throw fail("id", `passenger ${selected.passengerIds[0]} has a seat on segment ${selected.segmentIds[0]} already`);
      seated.add(place);
    }
    if (seat) chosenSeats.add(`${seat.segmentId} ${seat.designator}`);
    return selected;
  });
  return { services, amount: services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0) };
}

/** The request index of the booking's `seatIndex`-th seat chosen by designator (SeatTaken names seats so). */
export function seatServiceIndex(services: readonly SelectedService[], seatIndex: number): number {
  const indexes = services.flatMap((service, index) => (service.designator === undefined ? [] : [index]));
  return indexes[seatIndex]!;
}
