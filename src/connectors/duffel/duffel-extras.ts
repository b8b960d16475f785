import { createHash } from "node:crypto";
import { appError } from "../../errors/app-error";
import { formatMinor, parseMinor } from "../../money/format";
import type { CabinClass } from "../../gateway/contract/air";
import type { BookedService, IssuedEmd, SupplierBooking } from "../../gateway/contract/bookings";
import type { SeatSelection, Services } from "../../gateway/contract/capabilities";
import type { OfferView, SupplierOfferRef } from "../../gateway/contract/offers";
import type { AvailableService, SeatMap, SeatMapAnswer, SeatMapElement, SeatMapSubject, SeatOption } from "../../gateway/contract/seat-maps";
import { onAccount, type DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookings } from "./duffel-bookings";
import type { DuffelConnector } from "./duffel-connector";
import { convertedAmount } from "./duffel-prices";
import { DUFFEL } from "./duffel-ref";
import type { DuffelAvailableService, DuffelOffer, DuffelOrder, DuffelSeatElement, DuffelSeatMap } from "./duffel-shapes";

const CABIN_CLASSES: readonly CabinClass[] = ["economy", "premium_economy", "business", "first"];

/** What a stored offer is, as Duffel names its parts: our offer (its passengers, slices and segments in Duffel's order) and Duffel's names for it. */
type OfferSubject = Pick<OfferView, "id" | "tenantId" | "currency"> & { passengers: OfferView["payload"]["passengers"]; slices: OfferView["payload"]["slices"]; supplierOffer: SupplierOfferRef };

/** Duffel's ids of an offer's passengers, slices and segments, each to ours (by position: Duffel answers them in the order the offer has them). */
interface OurIds {
  passenger: Map<string, string>;
  slice: Map<string, string>;
  segment: Map<string, { id: string; flightKey: string }>;
}

/**
 * Extras of Duffel offers and orders (docs/duffel.md#seats-and-bags): the offer's bags (GET
 * /air/offers/:id?return_available_services=true) and its seat maps (GET /air/seat_maps), read
 * with the account that found the offer and shown under our ids, at Duffel's prices converted to
 * the offer's currency; the services keep Duffel's own ids, which a booking sends back. Duffel
 * takes services only with an order it is paid for at once (a hold takes none), and sells no
 * seat after booking. A paid order's bags (GET /air/orders/:id/available_services) are sold and
 * paid from the Duffel balance at once (POST /air/orders/:id/services) with the account that
 * booked it.
 */
export class DuffelExtras implements SeatSelection, Services {
  /** Duffel sells seats only with the booking, and bags after it on a paid order, paid at once (docs/duffel.md#seats-and-bags). */
  readonly afterBooking = "paid_bags";

  constructor(
    private readonly accounts: DuffelAccounts,
    private readonly bookings: DuffelBookings,
  ) {}

  /** The offer's bags, or, with `orderId`, the bags Duffel sells its booked order now (under the order's ids, which Duffel names by position as the offer's). */
  async availableServices(offer: OfferView, orderId?: string): Promise<AvailableService[]> {
    const subject = offerSubject(offer);
    if (!subject) return [];
    if (orderId !== undefined) {
      return this.onBookedOrder({ id: orderId, tenantId: offer.tenantId }, async (connector, duffelOrderId) => {
        const [order, bags] = await Promise.all([connector.getOrder(duffelOrderId), connector.orderAvailableServices(duffelOrderId)]);
        return bagsOf(bags, ourIds(subject, order), subject.currency);
      });
    }
    const duffelOffer = await this.onOfferAccount(subject, (connector) => connector.getOffer(subject.supplierOffer.id, { returnAvailableServices: true }));
    return bagsOf(duffelOffer.available_services ?? [], ourIds(subject, duffelOffer), subject.currency);
  }

  /**
   * Adds the bags to the paid Duffel order and pays their total at Duffel's prices now from the
   * balance, after checking that Duffel prices each as the order charges it (422 `price_changed`
   * otherwise, and `invalid_field_value` for one Duffel no longer offers: nothing sold). Duffel
   * takes no idempotency key: the sale is found again by Duffel's order holding more services
   * than ours (`booking.services`: one sale of an order is under way at a time), and then not
   * made again.
   */
  async sellServices(booking: SupplierBooking, _saleId: string, services: readonly BookedService[]): Promise<void> {
    await this.onBookedOrder(booking, async (connector, duffelOrderId) => {
      const order = await connector.getOrder(duffelOrderId);
      if (saleMade(order, booking)) return;
      const prices = new Map((await connector.orderAvailableServices(duffelOrderId)).map((service) => [service.id, service.total_amount]));
      const total = formatMinor(sumMinor(services, prices, order.total_currency), order.total_currency);
      await connector.addOrderServices(duffelOrderId, services.map(({ id, quantity }) => ({ id, quantity })), { amount: total, currency: order.total_currency });
    });
  }

  async serviceSaleMade(booking: SupplierBooking): Promise<boolean> {
    return this.onBookedOrder(booking, async (connector, duffelOrderId) => saleMade(await connector.getOrder(duffelOrderId), booking));
  }

  /** An offer's maps; Duffel has none for a booked order (it sells seats only with the booking). */
  async seatMaps(seatSubject: SeatMapSubject): Promise<SeatMapAnswer> {
    const subject = seatSubject.supplierOffer && { ...seatSubject, supplierOffer: seatSubject.supplierOffer };
    if (seatSubject.kind === "order" || !subject) throw appError("unsupported_by_supplier", { message: `The order's supplier ${DUFFEL.id} (${DUFFEL.name}) sells seats only with the booking: a booked order has no seat maps.` });
    const maps = (await this.duffelMaps(subject)).maps;
    return { key: createHash("sha256").update(JSON.stringify(maps)).digest("base64url"), draw: () => maps };
  }

  async seatOptions(offer: OfferView, ids: readonly string[], subjectId = offer.id): Promise<Map<string, SeatOption>> {
    const subject = offerSubject(offer);
    const options = new Map<string, SeatOption>();
    if (!subject || subjectId !== offer.id) return options;
    const wanted = new Set(ids);
    const { maps, ids: ours } = await this.duffelMaps(subject);
    for (const map of maps) {
      const flightKey = [...ours.segment.values()].find((segment) => segment.id === map.segmentId)!.flightKey;
      for (const seat of seatsOf(map)) {
        for (const service of seat.availableServices) {
          if (wanted.has(service.id)) options.set(service.id, { id: service.id, passengerId: service.passengerId, segmentId: map.segmentId, flightKey, designator: seat.designator, totalAmount: service.totalAmount });
        }
      }
    }
    return options;
  }

  /**
   * What the services chosen cost at Duffel now, in the offer's Duffel currency (a decimal, as a
   * payment states it): its bags' prices, and its seats' from its maps. 422 `invalid_field_value`
   * for an id Duffel no longer offers (nothing is booked).
   */
  async servicesTotal(booking: SupplierBooking & { supplierOffer: SupplierOfferRef }): Promise<string> {
    const ref = booking.supplierOffer;
    if (booking.services.length === 0) return formatMinor(0, ref.totalCurrency);
    return this.onOfferAccount({ tenantId: booking.tenantId, supplierOffer: ref }, async (connector) => {
      const prices = new Map<string, string>();
      const offer = await connector.getOffer(ref.id, { returnAvailableServices: true });
      for (const service of offer.available_services ?? []) prices.set(service.id, service.total_amount);
      if (booking.services.some((service) => !prices.has(service.id))) {
        for (const map of await connector.seatMaps(ref.id)) for (const element of seatElements(map)) for (const service of element.available_services ?? []) prices.set(service.id, service.total_amount);
      }
      return formatMinor(sumMinor(booking.services, prices, ref.totalCurrency), ref.totalCurrency);
    });
  }

  sellSeats(): Promise<void> {
    return Promise.reject(appError("unsupported_by_supplier", { message: `The order's supplier ${DUFFEL.id} (${DUFFEL.name}) sells seats only with the booking, not after it.` }));
  }

  /** Nothing to undo: Duffel sold no seat after booking. */
  cancelSeatSale(): Promise<void> {
    return Promise.resolve();
  }

  /** Duffel issues the documents of services itself: none of ours are made up. */
  issueEmds(): Promise<IssuedEmd[]> {
    return Promise.resolve([]);
  }

  /** The offer's seat maps under our ids (a map of a segment Duffel names otherwise than the offer is left out), and Duffel's ids mapped. */
  private async duffelMaps(subject: Omit<OfferSubject, "id">): Promise<{ maps: SeatMap[]; ids: OurIds }> {
    return this.onOfferAccount(subject, async (connector) => {
      const [offer, maps] = await Promise.all([connector.getOffer(subject.supplierOffer.id), connector.seatMaps(subject.supplierOffer.id)]);
      const ids = ourIds(subject, offer);
      return { maps: maps.flatMap((map) => toSeatMap(map, ids, subject.currency)), ids };
    });
  }

  /** Runs `call` on the order's booking at Duffel, with the account that made it. */
  private async onBookedOrder<T>(order: { id: string; tenantId: string }, call: (connector: DuffelConnector, duffelOrderId: string) => Promise<T>): Promise<T> {
    const booked = await this.bookings.bookedOrder(order);
    return this.bookings.on(booked, (connector) => call(connector, booked.duffelOrderId));
  }

  private async onOfferAccount<T>(subject: { tenantId: string; supplierOffer: SupplierOfferRef }, call: (connector: DuffelConnector) => Promise<T>): Promise<T> {
    return onAccount(this.accounts, await this.bookings.account(subject.tenantId, subject.supplierOffer.account ?? "tenant"), call);
  }
}

/** Whether Duffel's order holds more services than ours (every one of ours is Duffel's): a sale after booking not committed here was made. */
function saleMade(order: DuffelOrder, booking: SupplierBooking): boolean {
  const quantity = (services: ReadonlyArray<{ quantity: number }>) => services.reduce((sum, service) => sum + service.quantity, 0);
  return quantity(order.services ?? []) > quantity(booking.services);
}

function offerSubject(offer: OfferView): OfferSubject | null {
  const ref = offer.payload.supplierOffer;
  return ref ? { id: offer.id, tenantId: offer.tenantId, currency: offer.currency, passengers: offer.payload.passengers, slices: offer.payload.slices, supplierOffer: ref } : null;
}

function ourIds(subject: Pick<OfferSubject, "passengers" | "slices" | "supplierOffer">, offer: Pick<DuffelOffer, "slices">): OurIds {
  const passenger = new Map(subject.supplierOffer.passengerIds.flatMap((duffelId, index) => (subject.passengers[index] ? [[duffelId, subject.passengers[index].id] as const] : [])));
  const slice = new Map<string, string>();
  const segment = new Map<string, { id: string; flightKey: string }>();
  offer.slices.forEach((duffelSlice, sliceIndex) => {
    const ours = subject.slices[sliceIndex];
    if (!ours) return;
    slice.set(duffelSlice.id, ours.id);
    duffelSlice.segments.forEach((duffelSegment, segmentIndex) => {
      const ourSegment = ours.segments[segmentIndex];
      if (ourSegment) segment.set(duffelSegment.id, { id: ourSegment.id, flightKey: ourSegment.flightKey });
    });
  });
  return { passenger, slice, segment };
}

/** Duffel's bags (its other services, such as cancel-for-any-reason, are not sold through us), under our passenger and segment ids; one naming a passenger or segment we cannot place is left out. */
function bagsOf(services: readonly DuffelAvailableService[], ids: OurIds, currency: string): AvailableService[] {
  return services.flatMap((service) => {
    if (service.type !== "baggage") return [];
    const passengerIds = service.passenger_ids.map((id) => ids.passenger.get(id));
    const segmentIds = service.segment_ids.map((id) => ids.segment.get(id)?.id);
    if (passengerIds.includes(undefined) || segmentIds.includes(undefined)) return [];
    return [
      {
        id: service.id,
        type: "baggage" as const,
        totalAmount: convertedAmount(service.total_amount, service.total_currency, currency).amountMinor,
        currency,
        maximumQuantity: service.maximum_quantity,
        passengerIds: passengerIds as string[],
        segmentIds: segmentIds as string[],
      },
    ];
  });
}

function toSeatMap(map: DuffelSeatMap, ids: OurIds, currency: string): SeatMap[] {
  const segment = ids.segment.get(map.segment_id);
  const sliceId = ids.slice.get(map.slice_id);
  if (!segment || !sliceId) return [];
  return [
    {
      id: map.id,
      segmentId: segment.id,
      sliceId,
      cabins: map.cabins.map((cabin) => ({
        cabinClass: CABIN_CLASSES.find((cabinClass) => cabinClass === cabin.cabin_class) ?? "economy",
        deck: cabin.deck === 1 ? 1 : 0,
        aisles: cabin.aisles,
        wings: cabin.wings ? { firstRowIndex: cabin.wings.first_row_index, lastRowIndex: cabin.wings.last_row_index } : null,
        rows: cabin.rows.map((row) => ({ sections: row.sections.map((section) => ({ elements: section.elements.map((element) => toElement(element, ids, currency)) })) })),
      })),
    },
  ];
}

function toElement(element: DuffelSeatElement, ids: OurIds, currency: string): SeatMapElement {
  if (element.type !== "seat" && element.type !== "restricted_seat_general") return { type: element.type };
  return {
    type: "seat",
    designator: element.designator ?? "",
    name: element.name ?? "",
    disclosures: element.disclosures ?? [],
    availableServices: (element.available_services ?? []).flatMap((service) => {
      const passengerId = ids.passenger.get(service.passenger_id);
      return passengerId ? [{ id: service.id, passengerId, totalAmount: convertedAmount(service.total_amount, service.total_currency, currency).amountMinor, currency }] : [];
    }),
  };
}

function seatsOf(map: SeatMap) {
  return map.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.flatMap((element) => (element.type === "seat" ? [element] : [])))));
}

function seatElements(map: DuffelSeatMap): DuffelSeatElement[] {
  return map.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements)));
}

function sumMinor(services: readonly BookedService[], prices: ReadonlyMap<string, string>, currency: string): number {
  return services.reduce((sum, service) => {
    const price = prices.get(service.id);
    const minor = price === undefined ? null : parseMinor(price, currency);
    if (minor === null) throw appError("invalid_field_value", { field: "services", message: `services: Duffel no longer offers ${service.id}` });
    // Priced as the offer showed it (in the order's currency): Duffel paid another price would not be what the order charged.
    if (convertedAmount(price!, currency, service.currency).amountMinor !== service.unitAmount) {
      throw appError("price_changed", { message: "Duffel prices a service booked with the order otherwise now.", reason: `Duffel: ${service.id} now costs ${price} ${currency}` });
    }
    return sum + minor * service.quantity;
  }, 0);
}
