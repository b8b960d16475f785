import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import { clock } from "../clock";
import type { Airport } from "../locations/airport";
import type { AirportIndex } from "../locations/airport-index";
import { parseMinor } from "../money/format";
import type { CabinClass } from "../gateway/contract/air";
import type { FareSource } from "../gateway/contract/gateway";
import type { FareQuote, SupplierSearch } from "../gateway/contract/offers";
import { RecentMap } from "../recent-map";
import { dayToIsoDate, instantToLocalDay, localDay } from "../time/local-time";
import { MAX_CALENDAR_DAYS, type DestinationsRequest, type FareCalendarRequest } from "./fare-calendar.inputs";
import { CANDIDATES_PER_SEARCH, cheaperOf, cheapestSellable, quotedFares, totalInCurrency, type FareCandidate, type FareFee, type PricedFare } from "./lowest-fares";
import { offerFee, placeCodes } from "../pricing/fee-rules";
import type { PricingRuleSource } from "../pricing/pricing-rule";
import { isSupplierAllowed } from "../tenants/tenant-suppliers";
import { SALES_HORIZON_DAYS } from "./search-rules";
import { CalendarWork } from "./calendar-work";

/** A search's default, which the calendar's prices must match. */
const MAX_CONNECTIONS = 1;
/** Most destination ideas in one answer. */
const MAX_DESTINATIONS = 50;

/** The lowest price of a day (or of a destination's month): indicative, not an offer. */
export interface IndicativeFare {
  departureDate: string;
  /** Round trips only. */
  returnDate: string | null;
  /** Minor units of `currency`: what the cheapest offer of a search that day totals. */
  lowestTotalAmount: number;
  currency: string;
  /** The supplier whose offer it is. */
  supplier: string;
}

export interface DestinationIdea extends IndicativeFare {
  destination: Airport;
}

/** A destination with its month's cheapest fares, cheapest first. */
interface MonthFares {
  destination: Airport;
  fares: FareCandidate<TravelDay>[];
}

/** How long a month's fares to every destination are reused (the suppliers' fares change with their schedules, not by the minute). */
const DESTINATION_FARES_TTL_MS = 10 * 60_000;

interface TravelDay {
  departureDate: string;
  returnDate: string | null;
}

/**
 * Indicative prices from the suppliers' schedules and fares, with nothing stored: a fare
 * calendar (the lowest price of each day on sale for a route) and destination ideas (the
 * cheapest nonstop fare of a month to each place an origin flies to). A day's price is what the
 * cheapest offer of a search that day (one connection at most, `adults` adults) totals in the
 * tenant's currency, from every supplier that can quote cheaply; a search gives the bookable offer.
 * The suppliers price off the event loop (the simulated airline on its fare worker); what a
 * request stands for is counted in fare searches (`calendarSearches`, `destinationsSearches`),
 * which its caller is charged, and a tenant has at most two computed at once (calendar-work.ts).
 */
export class FareCalendarService {
  /** Months of destination fares, per supplier, origin, days and cabin: a few hundred at most. */
  private readonly destinationFares = new RecentMap<string, { fares: MonthFares[]; madeAt: number }>(200);

  /** What each tenant has under way (calendar-work.ts). */
  private readonly work = new CalendarWork();

  constructor(
    /** Every supplier that quotes lowest fares (the others are passed over). */
    private readonly sources: readonly FareSource[],
    private readonly airports: AirportIndex,
    private readonly pricing: PricingRuleSource,
  ) {}

  /**
   * One item per day of `from`–`to` on sale with a price, in date order. 400
   * `invalid_search_params` naming the field: unknown codes, origin = destination, `from` in
   * the past or past the last date on sale, `to` before `from`, a range over 90 days. Days past
   * the last date on sale (or whose return is) have no item.
   */
  async calendar(scope: TenantScope, request: FareCalendarRequest): Promise<IndicativeFare[]> {
    const { origins, destinations, days } = this.calendarPlan(scope, request);
    return this.work.run(scope.tenantId, () => this.priceCalendar(scope, request, origins, destinations, days));
  }

  /**
   * The fare searches a calendar asks for (calendar-work.ts): one per day of its range, two for a
   * round trip; a range the rules refuse, none (it is answered with its 400).
   */
  calendarSearches(request: FareCalendarRequest): number {
    const days = Math.min(MAX_CALENDAR_DAYS, Math.max(0, localDay(request.to) - localDay(request.from) + 1));
    return days * (request.stayDays === null ? 1 : 2);
  }

  /** The calendar's places and days on sale; 400 `invalid_search_params` naming the field (see `calendar`). */
  private calendarPlan(scope: TenantScope, request: FareCalendarRequest): { origins: Airport[]; destinations: Airport[]; days: TravelDay[] } {
    const origins = this.place("origin", request.origin);
    const destinations = this.place("destination", request.destination);
    if (origins.some((airport) => destinations.includes(airport))) throw invalid("destination", "must differ from the origin");
    const { today, lastOnSale } = salesWindow(origins[0]!, scope.clock.nowMs());
    const from = localDay(request.from);
    const to = localDay(request.to);
    if (from < today) throw invalid("from", `is in the past (today is ${dayToIsoDate(today)} at the origin)`);
    if (from > lastOnSale) throw invalid("from", `is not on sale yet (the last date on sale is ${dayToIsoDate(lastOnSale)})`);
    if (to < from) throw invalid("to", "must not be before from");
    if (to - from + 1 > MAX_CALENDAR_DAYS) throw invalid("to", `the range is at most ${MAX_CALENDAR_DAYS} days (from ${request.from}, to at most ${dayToIsoDate(from + MAX_CALENDAR_DAYS - 1)})`);
    const days: TravelDay[] = [];
    for (let day = from; day <= Math.min(to, lastOnSale); day++) {
      const back = request.stayDays === null ? null : day + request.stayDays;
      if (back !== null && back > lastOnSale) break;
      days.push({ departureDate: dayToIsoDate(day), returnDate: back === null ? null : dayToIsoDate(back) });
    }
    return { origins, destinations, days };
  }

  private async priceCalendar(scope: TenantScope, request: FareCalendarRequest, origins: Airport[], destinations: Airport[], days: TravelDay[]): Promise<IndicativeFare[]> {
    const passengers = Array.from({ length: request.adults }, (_, index) => ({ id: `p${index + 1}`, type: "adult" as const }));
    const searches = days.map((day) => ({
      label: day,
      search: {
        slices: [
          { origins, destinations, departureDate: day.departureDate },
          ...(day.returnDate === null ? [] : [{ origins: destinations, destinations: origins, departureDate: day.returnDate }]),
        ],
        passengers,
        cabinClass: request.cabinClass,
        maxConnections: MAX_CONNECTIONS,
        tenantId: scope.tenantId,
        environment: scope.tenant.environment,
      } satisfies SupplierSearch,
    }));
    const currency = scope.tenant.defaultCurrency;
    const feeOf = await this.feesOf(scope, request.cabinClass, origins[0]!, destinations[0]!);
    const best: Array<PricedFare<FareCandidate<TravelDay>> | null> = days.map(() => null);
    for (const source of this.sources.filter((entry) => isSupplierAllowed(scope.tenant, entry.ref.id))) {
      const quoted = await quotedFares(source, searches);
      if (quoted.length === 0) continue;
      const sellable = await cheapestSellable(source, quoted, scope.tenant.environment, currency, feeOf);
      sellable.forEach((fare, index) => (best[index] = cheaperOf(best[index], fare)));
    }
    return best.flatMap((fare) => (fare ? [indicativeFare(fare, currency)] : []));
  }

  /**
   * The cheapest nonstop fare of the month to each destination the origin has nonstop flights to
   * (one way, one adult), cheapest first, at most 50, none dearer than `maxPrice` (in the
   * tenant's currency): what a search that day with max_connections 0 finds cheapest.
   * 400 `invalid_search_params` naming the field: an unknown origin, a month with no date on
   * sale, a price that is not an amount of the tenant's currency.
   */
  async destinations(scope: TenantScope, request: DestinationsRequest): Promise<DestinationIdea[]> {
    const plan = this.destinationsPlan(scope, request);
    return this.work.run(scope.tenantId, () => this.priceDestinations(scope, request, plan));
  }

  /**
   * The fare searches destination ideas ask for (calendar-work.ts): one per day of the month and
   * place a supplier flies to nonstop from the origin (over a thousand from London), whether its
   * months are remembered or not; an unknown origin, none (it is answered with its 400).
   */
  destinationsSearches(request: DestinationsRequest): number {
    const origins = this.airports.airportsForCode(request.origin);
    if (origins.length === 0) return 0;
    const places = this.sources.reduce((sum, source) => sum + source.destinationsFrom(origins, this.airports.airports).length, 0);
    return daysInMonth(request.month) * places;
  }

  /** The origin, the price cap and the month's days on sale; 400 `invalid_search_params` naming the field (see `destinations`). */
  private destinationsPlan(scope: TenantScope, request: DestinationsRequest): { origins: Airport[]; maxPrice: number | null; first: number; last: number } {
    const origins = this.place("origin", request.origin);
    const currency = scope.tenant.defaultCurrency;
    const maxPrice = request.maxPrice === null ? null : parseMinor(request.maxPrice, currency);
    if (maxPrice === null && request.maxPrice !== null) throw invalid("max_price", `is not an amount of ${currency}`);
    const { today, lastOnSale } = salesWindow(origins[0]!, scope.clock.nowMs());
    const first = Math.max(today, localDay(`${request.month}-01`));
    const last = Math.min(lastOnSale, localDay(`${request.month}-01`) + daysInMonth(request.month) - 1);
    if (first > last) throw invalid("month", `has no date on sale (dates on sale run from ${dayToIsoDate(today)} to ${dayToIsoDate(lastOnSale)})`);
    return { origins, maxPrice, first, last };
  }

  private async priceDestinations(scope: TenantScope, request: DestinationsRequest, { origins, maxPrice, first, last }: ReturnType<FareCalendarService["destinationsPlan"]>): Promise<DestinationIdea[]> {
    const currency = scope.tenant.defaultCurrency;
    const best = new Map<Airport, PricedFare<FareCandidate<TravelDay>>>();
    const feeOf = await this.feesOf(scope, request.cabinClass, origins[0]!, null);
    for (const source of this.sources.filter((entry) => isSupplierAllowed(scope.tenant, entry.ref.id))) {
      // Destinations by their month's cheapest fare; those dearer than the cap are out already,
      // and only the first few are checked for seats: each has fares to fall back on.
      const candidates = (await this.monthFares(source, scope, origins, first, last, request.cabinClass))
        .filter(({ fares }) => maxPrice === null || totalInCurrency(fares[0]!.quote, currency) <= maxPrice)
        .slice(0, 2 * MAX_DESTINATIONS);
      const sellable = await cheapestSellable(source, candidates.map(({ fares }) => fares), scope.tenant.environment, currency, feeOf);
      candidates.forEach(({ destination }, index) => {
        const cheaper = cheaperOf(best.get(destination), sellable[index]);
        if (cheaper) best.set(destination, cheaper);
      });
    }
    return [...best]
      .filter(([, fare]) => maxPrice === null || fare.totalAmount <= maxPrice)
      .sort(([a, fareA], [b, fareB]) => fareA.totalAmount - fareB.totalAmount || (a.iataCode < b.iataCode ? -1 : 1))
      .slice(0, MAX_DESTINATIONS)
      .map(([destination, fare]) => ({ destination, ...indicativeFare(fare, currency) }));
  }

  /**
   * Each nonstop destination of the supplier from the origins, with its cheapest fares of the
   * days `first`–`last` (cheapest first, as many as a day's search is checked for), destinations
   * with the cheapest first. Pricing every day to every destination is the dear part (hundreds of
   * routes times a month): the supplier does it in one call, off the event loop
   * (`nonstopFaresTo`), and it is remembered for DESTINATION_FARES_TTL_MS; seats are checked on
   * every request.
   */
  private async monthFares(source: FareSource, scope: TenantScope, origins: Airport[], first: number, last: number, cabinClass: CabinClass): Promise<MonthFares[]> {
    const key = `${source.ref.id}|${origins.map((airport) => airport.iataCode).join(",")}|${first}|${last}|${cabinClass}`;
    const kept = this.destinationFares.get(key);
    if (kept && clock.nowMs() - kept.madeAt < DESTINATION_FARES_TTL_MS) return kept.fares;
    const places = source.destinationsFrom(origins, this.airports.airports);
    const days = Array.from({ length: last - first + 1 }, (_, offset) => dayToIsoDate(first + offset));
    const priced = places.length === 0 ? [] : await source.nonstopFaresTo(origins, places, days, cabinClass, CANDIDATES_PER_SEARCH);
    const fares: MonthFares[] = [];
    places.forEach((destination, index) => {
      const month = priced[index] ?? [];
      if (month.length > 0) fares.push({ destination, fares: month.map(({ departureDate, quote }) => ({ label: { departureDate, returnDate: null }, quote, seatsNeeded: 1 })) });
    });
    fares.sort((a, b) => usdTotal(a.fares[0]!.quote) - usdTotal(b.fares[0]!.quote));
    this.destinationFares.set(key, { fares, madeAt: clock.nowMs() });
    return fares;
  }

  /**
   * The fee an offer of each fare would carry under the tenant's pricing rules, matched on the
   * fare's airline and airports (`origin` and `destination` stand in for a supplier that does not
   * name them; a destination idea's is its own) and the cabin asked for.
   */
  private async feesOf(scope: TenantScope, cabinClass: CabinClass, origin: Airport, destination: Airport | null): Promise<FareFee> {
    const rules = await this.pricing.rulesFor(scope.tenantId);
    if (rules.length === 0) return () => 0;
    const place = (code: string | undefined, fallback: Airport | null) => placeCodes((code === undefined ? undefined : this.airports.getByIata(code)) ?? fallback ?? origin);
    return (quote, supplierId, passengerFares) =>
      offerFee(rules, {
        tenantId: scope.tenantId,
        environment: scope.tenant.environment,
        supplier: supplierId,
        carrier: quote.route?.owner ?? null,
        origin: place(quote.route?.origin, origin),
        destination: place(quote.route?.destination, destination),
        cabinClass,
        passengerFares,
        currency: scope.tenant.defaultCurrency,
      })?.amount ?? 0;
  }

  private place(field: string, code: string): Airport[] {
    const found = this.airports.airportsForCode(code);
    if (found.length === 0) throw invalid(field, `${code} is not a known IATA airport or city code`);
    return found;
  }
}

function indicativeFare(fare: PricedFare<FareCandidate<TravelDay>>, currency: string): IndicativeFare {
  const day = fare.candidate.label;
  return { departureDate: day.departureDate, returnDate: day.returnDate, lowestTotalAmount: fare.totalAmount, currency, supplier: fare.supplier };
}

/** Today at the origin at `nowMs` (the tenant's time), and the last date on sale there (as a search counts them). */
function salesWindow(origin: Airport, nowMs: number): { today: number; lastOnSale: number } {
  const today = instantToLocalDay(origin.timeZone, nowMs);
  return { today, lastOnSale: today + SALES_HORIZON_DAYS };
}

function usdTotal(quote: FareQuote): number {
  return quote.passengerFares.reduce((sum, fare) => sum + fare, 0);
}

function daysInMonth(month: string): number {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, number, 0)).getUTCDate();
}

function invalid(field: string, message: string) {
  return appError("invalid_search_params", { field, message: `${field}: ${message}` });
}
