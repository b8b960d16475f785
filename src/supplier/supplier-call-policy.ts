import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "../errors/app-error";
import type { Airport } from "../locations/airport";
import type { Logger } from "../logger";
import {
  SeatsUnavailable,
  SeatTaken,
  type BookedItinerary,
  type FareQuote,
  type BookingRef,
  type CancellationQuote,
  type FlightCabin,
  type FlightTimes,
  type IssuedEmd,
  type OrderRef,
  type ReissuedTicket,
  type SeatChoice,
  type SeatExchange,
  type ServiceSale,
  type Supplier,
  type SupplierBooking,
  type SupplierOffer,
  type SupplierSearch,
  type TicketingAnswer,
} from "./supplier";

/** How each call to a supplier is bounded and repeated (docs/supplier-contract.md#timeouts-and-retries). */
export interface CallPolicy {
  /** How long one attempt of a call made while a client waits (holds, sales, exchanges, releases, seat reads) may take. */
  timeoutMs: number;
  /** How long one attempt of a call made by a background job (ticketing, EMDs, reissues, refunds) may take: the job's lease is renewed meanwhile. */
  jobTimeoutMs: number;
  /** Attempts after the first, when an attempt timed out or failed without an answer. */
  retries: number;
  /** The wait before the first retry; each next one doubles, with up to half of it taken off at random. */
  backoffMs: number;
}

/** Whose wait a call's timeout is measured against. */
type CallKind = "interactive" | "job";

/** One attempt of a supplier call took longer than its policy allows. */
export class SupplierTimeout extends Error {
  override name = "SupplierTimeout";
  constructor(
    readonly call: string,
    readonly timeoutMs: number,
  ) {
    super(`supplier call ${call} took longer than ${timeoutMs} ms`);
  }
}

/** A supplier's answer (it refused, for a reason of its own, or a connector's refusal in the catalogue's words): final, never retried. */
function isAnswer(error: unknown): boolean {
  return error instanceof SeatsUnavailable || error instanceof SeatTaken || (error instanceof AppError && error.status < 500);
}

/**
 * A supplier with a call policy: each attempt of a call is cut at its timeout, and a call that
 * timed out or failed without an answer is tried again after a backoff, up to `retries` times.
 * Every call of the contract that changes the supplier's state is keyed by our ids, so each is
 * safe to repeat: a retry after a timeout whose attempt did reach the supplier gets the same
 * answer. The supplier's refusals (SeatsUnavailable, SeatTaken) are answers and go straight back.
 *
 * Search is passed through: its deadline is the search request's own. This wrapper composes with
 * others (a cache, a circuit breaker) around the same contract.
 */
export class SupplierCallPolicy implements Supplier {
  readonly name: string;
  /** Present when the inner supplier has them: reads answered from its own timetable, with no call to bound. */
  readonly lowestFares?: (request: SupplierSearch, limit: number) => Promise<FareQuote[]>;
  readonly destinationsFrom?: (origins: readonly Airport[], candidates: readonly Airport[]) => Airport[];
  readonly nonstopFaresTo?: Supplier["nonstopFaresTo"];
  /** Present when the inner supplier prices its own cancellations: bounded and retried as any call a client waits on. */
  readonly quoteCancellation?: (order: OrderRef, currency: string) => Promise<CancellationQuote>;

  constructor(
    private readonly inner: Supplier,
    private readonly policy: CallPolicy,
    private readonly log?: Logger,
  ) {
    this.name = inner.name;
    this.lowestFares = inner.lowestFares?.bind(inner);
    this.destinationsFrom = inner.destinationsFrom?.bind(inner);
    this.nonstopFaresTo = inner.nonstopFaresTo?.bind(inner);
    const quote = inner.quoteCancellation?.bind(inner);
    if (quote) this.quoteCancellation = (order, currency) => this.call("quoteCancellation", "interactive", () => quote(order, currency));
  }

  search(request: SupplierSearch): Promise<SupplierOffer[]> {
    return this.inner.search(request);
  }

  holdSeats(booking: SupplierBooking): Promise<{ bookingReference: string }> {
    return this.call("holdSeats", "interactive", () => this.inner.holdSeats(booking));
  }

  releaseSeats(...bookingIds: string[]): Promise<void> {
    return this.call("releaseSeats", "interactive", () => this.inner.releaseSeats(...bookingIds));
  }

  seatsHeld(flights: ReadonlyArray<FlightCabin>, environment: SupplierBooking["environment"]): Promise<Map<string, number>> {
    return this.call("seatsHeld", "interactive", () => this.inner.seatsHeld(flights, environment));
  }

  seatsAssigned(flightKeys: readonly string[], environment: SupplierBooking["environment"]): Promise<Map<string, Set<string>>> {
    return this.call("seatsAssigned", "interactive", () => this.inner.seatsAssigned(flightKeys, environment));
  }

  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    return this.call("sellSeats", "interactive", () => this.inner.sellSeats(booking, saleId, seats));
  }

  cancelSeatSale(bookingId: string, saleId: string): Promise<void> {
    return this.call("cancelSeatSale", "interactive", () => this.inner.cancelSeatSale(bookingId, saleId));
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.call("issueTickets", "job", () => this.inner.issueTickets(booking));
  }

  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    return this.call("issueEmds", "job", () => this.inner.issueEmds(booking, services));
  }

  exchangeSeats(booking: BookingRef, exchangeId: string, exchange: SeatExchange): Promise<void> {
    return this.call("exchangeSeats", "interactive", () => this.inner.exchangeSeats(booking, exchangeId, exchange));
  }

  completeSeatExchange(bookingId: string, exchangeId: string, release: readonly string[]): Promise<void> {
    return this.call("completeSeatExchange", "interactive", () => this.inner.completeSeatExchange(bookingId, exchangeId, release));
  }

  cancelSeatExchange(bookingId: string, exchangeId: string): Promise<void> {
    return this.call("cancelSeatExchange", "interactive", () => this.inner.cancelSeatExchange(bookingId, exchangeId));
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.call("reissueTickets", "job", () => this.inner.reissueTickets(booking, reissue));
  }

  refundTickets(booking: SupplierBooking, quoteReference?: string | null): Promise<void> {
    return this.call("refundTickets", "job", () => this.inner.refundTickets(booking, quoteReference));
  }

  /** Local to the sandbox's trigger (no remote state changes): passed through. */
  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
    return this.inner.retimeFlight(flightKey, itineraries, now);
  }

  private async call<T>(name: string, kind: CallKind, attempt: () => Promise<T>): Promise<T> {
    const timeoutMs = kind === "job" ? this.policy.jobTimeoutMs : this.policy.timeoutMs;
    for (let retry = 0; ; retry++) {
      try {
        return await withTimeout(attempt(), timeoutMs, name);
      } catch (error) {
        if (isAnswer(error) || retry >= this.policy.retries) throw error;
        const waitMs = backoff(this.policy.backoffMs, retry);
        this.log?.warn({ err: error, supplier: this.name, call: name, retry: retry + 1, waitMs }, "supplier call failed without an answer; trying it again");
        await sleep(waitMs);
      }
    }
  }
}

/** The wait before retry `retry` (0-based): `baseMs` doubled each time, up to half of it taken off at random so that callers spread out. */
export function backoff(baseMs: number, retry: number): number {
  const full = baseMs * 2 ** retry;
  return Math.round(full - Math.random() * (full / 2));
}

/** `answer`, or SupplierTimeout after `timeoutMs`; the timer is cleared either way, so none is left behind. */
async function withTimeout<T>(answer: Promise<T>, timeoutMs: number, call: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SupplierTimeout(call, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
    // An attempt that lost the race may still fail later: that failure is not this call's.
    answer.catch(() => undefined);
  }
}
