import type { Airport } from "../../locations/airport";
import type { Environment } from "../contract/air";
import type { BookedService, BookingAnswer, BookingRef, CancellationQuote, ChangeQuoteRequest, FlightChange, IssuedEmd, OrderRef, RefundOutcome, ReissuedTicket, ReportedChange, SeatChoice, ServiceSale, SupplierBooking, SupplierChangeOffer, SupplierOrder, TicketingAnswer } from "../contract/bookings";
import type { AfterBooking, Availability, CancelledElsewhere, DeclaredCapabilities, LowestFares, OrderChanges, PricedHolds, QuotedChanges, ReportedChanges, SeatSelection, Services } from "../contract/capabilities";
import type { DatedFare, FareQuote, OfferView, SupplierOffer, SupplierOfferRef, SupplierSearch } from "../contract/offers";
import type { AvailableService, SeatMapAnswer, SeatMapSubject, SeatOption } from "../contract/seat-maps";
import type { Supplier } from "../contract/supplier";
import type { CallKind, RunCall, SupplierCall } from "./supplier-call";

/**
 * A connector with the pipeline (pipeline.ts) around every call it takes: explicit wrappers, one
 * method each, each naming its call and what bounds it. What a capability merely declares (its
 * prices, the airports it flies to, a retimed flight) is read in memory and passed through, and
 * so are an offer's extras and seat options: a remote supplier bounds those reads itself, and a
 * booking asks them before anything moves.
 */
export function pipedConnector(supplierId: string, supplier: Supplier, capabilities: DeclaredCapabilities, run: RunCall, cachesAnswers: boolean): { supplier: Supplier; capabilities: DeclaredCapabilities } {
  const calls = new Calls(supplierId, run);
  return {
    supplier: new PipedSupplier(supplier, calls, cachesAnswers),
    capabilities: {
      ...(capabilities.holds && { holds: capabilities.holds }),
      ...(capabilities.airlineChanges && { airlineChanges: capabilities.airlineChanges }),
      ...(capabilities.pricedHolds && { pricedHolds: new PipedPricedHolds(capabilities.pricedHolds, calls) }),
      ...(capabilities.reportedChanges && { reportedChanges: new PipedReportedChanges(capabilities.reportedChanges, calls) }),
      ...(capabilities.cancelledElsewhere && { cancelledElsewhere: new PipedCancelledElsewhere(capabilities.cancelledElsewhere, calls) }),
      ...(capabilities.seatSelection && { seatSelection: new PipedSeatSelection(capabilities.seatSelection, calls) }),
      ...(capabilities.services && { services: new PipedServices(capabilities.services, calls) }),
      ...(capabilities.orderChanges && { orderChanges: new PipedOrderChanges(capabilities.orderChanges, calls) }),
      ...(capabilities.quotedChanges && { quotedChanges: new PipedQuotedChanges(capabilities.quotedChanges, calls) }),
      ...(capabilities.lowestFares && { lowestFares: new PipedLowestFares(capabilities.lowestFares, calls, cachesAnswers) }),
      ...(capabilities.availability && { availability: new PipedAvailability(capabilities.availability, calls) }),
    },
  };
}

/** One supplier's calls into the pipeline. */
class Calls {
  constructor(
    readonly supplier: string,
    readonly run: RunCall,
  ) {}

  call<T>(name: string, kind: CallKind, environment: Environment, invoke: () => Promise<T>, extra: Partial<SupplierCall> = {}): Promise<T> {
    return this.run({ supplier: this.supplier, name, kind, environment, ...extra }, invoke);
  }

  /** A call naming bookings of several environments: once per environment, each under its own circuit. */
  async perEnvironment(name: string, bookings: readonly BookingRef[], invoke: (bookings: readonly BookingRef[]) => Promise<void>): Promise<void> {
    const groups = new Map<Environment, BookingRef[]>();
    for (const booking of bookings) groups.set(booking.environment, [...(groups.get(booking.environment) ?? []), booking]);
    for (const [environment, group] of groups) await this.call(name, "interactive", environment, () => invoke(group));
  }
}

class PipedSupplier implements Supplier {
  constructor(
    private readonly inner: Supplier,
    private readonly calls: Calls,
    private readonly cachesAnswers: boolean,
  ) {}

  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    const extra: Partial<SupplierCall> = { signal: request.signal, ...(request.forcedOutcome && { forcedOutcome: request.forcedOutcome }), ...(this.cachesAnswers && { cacheKey: questionKey(request) }) };
    return withPassengerIds(await this.calls.call("search", "search", request.environment, () => this.inner.search(request), extra), request);
  }

  book(booking: SupplierBooking): Promise<BookingAnswer> {
    return this.calls.call("book", "interactive", booking.environment, () => this.inner.book(booking));
  }

  cancelBookings(bookings: readonly BookingRef[]): Promise<void> {
    return this.calls.perEnvironment("cancelBookings", bookings, (group) => this.inner.cancelBookings(group));
  }

  readOrder(booking: BookingRef): Promise<SupplierOrder | null> {
    return this.calls.call("readOrder", "interactive", booking.environment, () => this.inner.readOrder(booking));
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.calls.call("issueTickets", "job", booking.environment, () => this.inner.issueTickets(booking));
  }

  quoteCancellation(order: OrderRef, currency: string): Promise<CancellationQuote | null> {
    return this.calls.call("quoteCancellation", "interactive", order.environment, () => this.inner.quoteCancellation(order, currency));
  }

  refundTickets(booking: SupplierBooking, quoteReference: string | null): Promise<RefundOutcome | void> {
    return this.calls.call("refundTickets", "job", booking.environment, () => this.inner.refundTickets(booking, quoteReference));
  }
}

class PipedPricedHolds implements PricedHolds {
  constructor(
    private readonly inner: PricedHolds,
    private readonly calls: Calls,
  ) {}

  holdPriceChange(order: OrderRef & { supplierOffer?: SupplierOfferRef }, currency: string): Promise<number> {
    return this.calls.call("holdPriceChange", "interactive", order.environment, () => this.inner.holdPriceChange(order, currency));
  }
}

class PipedReportedChanges implements ReportedChanges {
  constructor(
    private readonly inner: ReportedChanges,
    private readonly calls: Calls,
  ) {}

  reportedChanges(booking: BookingRef): Promise<ReportedChange[]> {
    return this.calls.call("reportedChanges", "job", booking.environment, () => this.inner.reportedChanges(booking));
  }

  acceptReportedChange(booking: BookingRef, supplierChangeId: string): Promise<void> {
    return this.calls.call("acceptReportedChange", "interactive", booking.environment, () => this.inner.acceptReportedChange(booking, supplierChangeId));
  }
}

class PipedCancelledElsewhere implements CancelledElsewhere {
  constructor(
    private readonly inner: CancelledElsewhere,
    private readonly calls: Calls,
  ) {}

  cancellationAtSupplier(booking: OrderRef, currency: string): Promise<CancellationQuote | null> {
    return this.calls.call("cancellationAtSupplier", "job", booking.environment, () => this.inner.cancellationAtSupplier(booking, currency));
  }
}

class PipedSeatSelection implements SeatSelection {
  constructor(
    private readonly inner: SeatSelection,
    private readonly calls: Calls,
  ) {}

  seatMaps(subject: SeatMapSubject): Promise<SeatMapAnswer> {
    return this.calls.call("seatMaps", "interactive", subject.environment, () => this.inner.seatMaps(subject));
  }

  seatOptions(offer: OfferView, ids: readonly string[], subjectId?: string): Promise<Map<string, SeatOption>> {
    return this.inner.seatOptions(offer, ids, subjectId);
  }
}

class PipedServices implements Services {
  readonly afterBooking: AfterBooking;

  constructor(
    private readonly inner: Services,
    private readonly calls: Calls,
  ) {
    this.afterBooking = inner.afterBooking;
  }

  availableServices(offer: OfferView, orderId?: string): Promise<AvailableService[]> {
    return this.inner.availableServices(offer, orderId);
  }

  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    return this.calls.call("sellSeats", "interactive", booking.environment, () => this.inner.sellSeats(booking, saleId, seats));
  }

  cancelSeatSale(booking: BookingRef, saleId: string): Promise<void> {
    return this.calls.call("cancelSeatSale", "interactive", booking.environment, () => this.inner.cancelSeatSale(booking, saleId));
  }

  sellServices(booking: SupplierBooking, saleId: string, services: readonly BookedService[]): Promise<void> {
    return this.calls.call("sellServices", "interactive", booking.environment, () => this.inner.sellServices(booking, saleId, services));
  }

  serviceSaleMade(booking: SupplierBooking, saleId: string, services: readonly BookedService[]): Promise<boolean> {
    return this.calls.call("serviceSaleMade", "job", booking.environment, () => this.inner.serviceSaleMade(booking, saleId, services));
  }

  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    return this.calls.call("issueEmds", "job", booking.environment, () => this.inner.issueEmds(booking, services));
  }
}

class PipedOrderChanges implements OrderChanges {
  constructor(
    private readonly inner: OrderChanges,
    private readonly calls: Calls,
  ) {}

  changeFlights(booking: BookingRef, changeId: string, change: FlightChange): Promise<void> {
    return this.calls.call("changeFlights", "interactive", booking.environment, () => this.inner.changeFlights(booking, changeId, change));
  }

  completeChange(booking: BookingRef, changeId: string, release: readonly string[]): Promise<void> {
    return this.calls.call("completeChange", "interactive", booking.environment, () => this.inner.completeChange(booking, changeId, release));
  }

  cancelChange(booking: BookingRef, changeId: string): Promise<void> {
    return this.calls.call("cancelChange", "interactive", booking.environment, () => this.inner.cancelChange(booking, changeId));
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.calls.call("reissueTickets", "job", booking.environment, () => this.inner.reissueTickets(booking, reissue));
  }
}

class PipedQuotedChanges implements QuotedChanges {
  constructor(
    private readonly inner: QuotedChanges,
    private readonly calls: Calls,
  ) {}

  quoteChanges(booking: OrderRef, request: ChangeQuoteRequest, currency: string): Promise<SupplierChangeOffer[]> {
    return this.calls.call("quoteChanges", "interactive", booking.environment, () => this.inner.quoteChanges(booking, request, currency));
  }

  confirmQuotedChange(booking: BookingRef, supplierOfferId: string): Promise<void> {
    return this.calls.call("confirmQuotedChange", "interactive", booking.environment, () => this.inner.confirmQuotedChange(booking, supplierOfferId));
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.calls.call("reissueTickets", "job", booking.environment, () => this.inner.reissueTickets(booking, reissue));
  }
}

class PipedLowestFares implements LowestFares {
  constructor(
    private readonly inner: LowestFares,
    private readonly calls: Calls,
    private readonly cachesAnswers: boolean,
  ) {}

  lowestFares(request: SupplierSearch, limit: number): Promise<FareQuote[]> {
    const extra = this.cachesAnswers ? { cacheKey: `${limit} ${questionKey(request)}` } : {};
    return this.calls.call("lowestFares", "read", request.environment, () => this.inner.lowestFares(request, limit), extra);
  }

  destinationsFrom(origins: readonly Airport[], candidates: readonly Airport[]): Airport[] {
    return this.inner.destinationsFrom(origins, candidates);
  }

  /** Computed by the supplier itself (no remote call to bound), like `destinationsFrom`. */
  nonstopFaresTo(...args: Parameters<LowestFares["nonstopFaresTo"]>): Promise<DatedFare[][]> {
    return this.inner.nonstopFaresTo(...args);
  }
}

class PipedAvailability implements Availability {
  constructor(
    private readonly inner: Availability,
    private readonly calls: Calls,
  ) {}

  sellableOffers(offers: SupplierOffer[], search: SupplierSearch): Promise<SupplierOffer[]> {
    return this.calls.call("sellableOffers", "interactive", search.environment, () => this.inner.sellableOffers(offers, search));
  }

  sellableFares(groups: ReadonlyArray<readonly FareQuote[]>, party: { seatsNeeded: number; environment: Environment }): Promise<Array<FareQuote | null>> {
    return this.calls.call("sellableFares", "interactive", party.environment, () => this.inner.sellableFares(groups, party));
  }
}

/** What makes two searches the same question: airports, dates, passenger types, cabin and connections (passenger ids differ from search to search). */
function questionKey(request: SupplierSearch): string {
  return JSON.stringify([
    request.slices.map((slice) => [slice.origins.map((airport) => airport.iataCode), slice.destinations.map((airport) => airport.iataCode), slice.departureDate]),
    request.passengers.map((passenger) => passenger.type),
    request.cabinClass,
    request.maxConnections,
  ]);
}

/** The offers with the search's passenger ids, position by position: an answer given again carries the first search's. */
function withPassengerIds(offers: SupplierOffer[], request: SupplierSearch): SupplierOffer[] {
  const first = offers[0]?.passengers;
  if (!first || first.every((fare, index) => fare.id === request.passengers[index]!.id)) return offers;
  return offers.map((offer) => ({ ...offer, passengers: offer.passengers.map((fare, index) => ({ ...fare, id: request.passengers[index]!.id })) }));
}
