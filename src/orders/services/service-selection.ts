import { appError } from "../../errors/app-error";
import type { ErrorCode } from "../../errors/catalogue";
import type { Services } from "../../gateway/contract/capabilities";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import type { AvailableService, SeatOption } from "../../gateway/contract/seat-maps";
import type { StoredOffer } from "../../search/offer-payload";
import type { SelectedService } from "../core/order";

/** What an offer (or the order booking it) can be given, at its supplier's prices: its extras, and the seats of its maps among the ids a request names. */
export interface OfferExtras {
  available: readonly AvailableService[];
  seats: ReadonlyMap<string, SeatOption>;
}

/** The extras the offer can be booked with (`return_available_services=true`), or the order `orderId` booking it given, at its supplier's prices; none from a supplier that sells none through us. */
export async function offerServices(suppliers: Pick<OrderSuppliers, "declared">, offer: StoredOffer, orderId?: string): Promise<AvailableService[]> {
  return (await suppliers.declared(offer.payload, "services")?.availableServices(offer, orderId)) ?? [];
}

/**
 * The offer's extras at its supplier (`services`: its capability), and the seats of its maps
 * among the `ids` asked that are not among them, when it has maps. `subjectId`: the order booking
 * the offer, whose maps name their seats by it.
 */
export async function offerExtras(suppliers: Pick<OrderSuppliers, "declared">, services: Services, offer: StoredOffer, ids: readonly string[], subjectId = offer.id): Promise<OfferExtras> {
  const available = await services.availableServices(offer, subjectId === offer.id ? undefined : subjectId);
  const offered = new Set(available.map((service) => service.id));
  const seatIds = ids.filter((id) => !offered.has(id));
  const seatSelection = suppliers.declared(offer.payload, "seatSelection");
  const seats = seatIds.length > 0 && seatSelection ? await seatSelection.seatOptions(offer, seatIds, subjectId) : new Map<string, SeatOption>();
  return { available, seats };
}

/** What services are chosen for, and how the request names them. */
export interface SelectionContext {
  /** The request's list of services: `services` (booking), `add_services` (adding to an order). */
  field: string;
  /** What offers them, as errors name it. */
  subject: "offer" | "order";
  /** Services the order has already: bags count against their maximum, seats take their passengers' places. */
  booked: readonly SelectedService[];
  /** The code of a refusal other than an id not offered (which is always 422 `invalid_field_value`). */
  refusal: ErrorCode;
}

/** Booking an offer: nothing is booked yet, and the booking's refusals are 400 `validation_failed`. */
const BOOKING: SelectionContext = { field: "services", subject: "offer", booked: [], refusal: "validation_failed" };

/**
 * The services a client asked for, checked and priced: each must be one of the offer's
 * available services (GET /v1/air/offers/:id?return_available_services=true, or an order's
 * `available_services`) or a seat of its seat maps (`extras.seats`), at most
 * once, within what is left of its maximum quantity (1 for a seat) after `context.booked`, with
 * at most one seat per passenger and segment, counting those booked. An id that is not offered
 * (unknown, another offer's or order's, or for a passenger who may not have it) is 422
 * `invalid_field_value` naming the field; the other refusals are `context.refusal` naming it;
 * a seat chosen twice is 422 `seat_unavailable`.
 */
export function selectServices(
  selections: ReadonlyArray<{ id: string; quantity: number }>,
  offer: StoredOffer,
  extras: OfferExtras,
  context: SelectionContext = BOOKING,
): { services: SelectedService[]; amount: number } {
  if (selections.length === 0) return { services: [], amount: 0 };
  const offered = new Map(extras.available.map((service) => [service.id, service]));
  const used = quantitiesBooked(context.booked);
  const seen = new Set<string>();
  const seated = seatedPlaces(context.booked);
  const chosenSeats = new Set<string>();
  const services = selections.map((selection, index): SelectedService => {
    const named = (name: string) => `${context.field}[${index}].${name}`;
    const field = named("id");
    const fail = (name: string, message: string) => appError(context.refusal, { field: named(name), message: `${named(name)}: ${message}` });
    const service = offered.get(selection.id);
    const seat = service ? undefined : extras.seats.get(selection.id);
    if (!service && !seat) throw appError("invalid_field_value", { field, message: `${field}: ${selection.id} is not a service of this ${context.subject} for its passengers` });
    if (seat && chosenSeats.has(`${seat.segmentId} ${seat.designator}`)) {
      throw appError("seat_unavailable", { field, reason: `Seat ${seat.designator} is chosen twice in this request.` });
    }
    if (seen.has(selection.id)) throw fail("id", `${selection.id} is given twice`);
    seen.add(selection.id);
    const maximum = service ? service.maximumQuantity - (used.get(service.id) ?? 0) : 1;
    if (selection.quantity < 1) throw fail("quantity", "at least 1");
    if (selection.quantity > maximum) throw fail("quantity", `at most ${maximum}${used.has(selection.id) ? ` (${used.get(selection.id)} booked already)` : ""}`);
    const selected: SelectedService = seat
      ? { id: seat.id, type: "seat", quantity: 1, unitAmount: seat.totalAmount, passengerIds: [seat.passengerId], segmentIds: [seat.segmentId], designator: seat.designator }
      : { id: service!.id, type: service!.type, quantity: selection.quantity, unitAmount: service!.totalAmount, passengerIds: service!.passengerIds, segmentIds: service!.segmentIds };
    if (selected.type === "seat") {
      const place = seatPlace(selected);
      if (seated.has(place)) throw fail("id", `passenger ${selected.passengerIds[0]} has a seat on segment ${selected.segmentIds[0]} already`);
      seated.add(place);
    }
    if (seat) chosenSeats.add(`${seat.segmentId} ${seat.designator}`);
    return selected;
  });
  return { services, amount: services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0) };
}

/**
 * The offer's available services that can still be added to an order holding `booked`: bags
 * with what is left of their maximum, seat selections for passengers without a seat on the
 * segment (whether chosen with or without a map).
 */
export function servicesLeft(available: readonly AvailableService[], booked: readonly SelectedService[]): AvailableService[] {
  const used = quantitiesBooked(booked);
  const seated = seatedPlaces(booked);
  return available.flatMap((service) => {
    if (service.type === "seat") return seated.has(seatPlace(service)) ? [] : [service];
    const left = service.maximumQuantity - (used.get(service.id) ?? 0);
    return left > 0 ? [{ ...service, maximumQuantity: left }] : [];
  });
}

/** The request index of the booking's `seatIndex`-th seat chosen by designator (SeatTaken names seats so). */
export function seatServiceIndex(services: readonly SelectedService[], seatIndex: number): number {
  const indexes = services.flatMap((service, index) => (service.designator === undefined ? [] : [index]));
  return indexes[seatIndex]!;
}

/** Each bag service's quantity booked, by id (a bag may be booked, then added to). */
function quantitiesBooked(booked: readonly SelectedService[]): Map<string, number> {
  const used = new Map<string, number>();
  for (const service of booked) if (service.type === "baggage") used.set(service.id, (used.get(service.id) ?? 0) + service.quantity);
  return used;
}

/** Where a seat service seats its passenger: one passenger, one segment. */
function seatPlace(service: Pick<SelectedService, "passengerIds" | "segmentIds">): string {
  return `${service.passengerIds[0]} ${service.segmentIds[0]}`;
}

function seatedPlaces(booked: readonly SelectedService[]): Set<string> {
  return new Set(booked.filter((service) => service.type === "seat").map(seatPlace));
}
