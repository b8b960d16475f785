import type { Airport } from "./airport";
import { packagedAirports } from "./packaged-airports";
import { PrefixIndex, type KeyEntry } from "./prefix-index";
import { foldForSearch } from "./search-text";

/** Airports a lookup answers unless it asks for another number (REST and GraphQL locations)… */
export const DEFAULT_LOCATIONS = 10;
/** …and the most it may ask for: a lookup fills a pick list, not a page to walk. */
export const MAX_LOCATIONS = 15;

/**
 * Every airport in memory, with lookups by code and id and the ranked search (docs/rest-api.md#locations).
 * Airports are numbered best first (sizeRank, then name), so during a search "bigger" is just
 * "lower number" and ranking needs no comparisons of airports.
 */
export class AirportIndex {
  private readonly ranked: readonly Airport[];
  private readonly positionByIata = new Map<string, number>();
  private readonly byId = new Map<string, Airport>();
  /** IATA city code (a metro code or an airport's own) → positions of its airports, best first. */
  private readonly positionsByCityCode = new Map<string, number[]>();
  /** Whole folded names and city names. */
  private readonly wholeKeys: PrefixIndex;
  /** Folded names and city names from each later word on ("heathrow airport"). */
  private readonly wordKeys: PrefixIndex;
  /** Folded names and city names from each position inside a word ("athrow airport"). */
  private readonly innerKeys: PrefixIndex;
  /** Stamped with the current search's number when an airport has been matched by it. */
  private readonly matchedInSearch: Uint32Array;
  private searchNumber = 0;

  constructor(airports: readonly Airport[]) {
    this.ranked = [...airports].sort(
      (a, b) => b.sizeRank - a.sizeRank || compareText(a.name, b.name) || compareText(a.iataCode, b.iataCode),
    );
    this.ranked.forEach((airport, position) => {
      this.positionByIata.set(airport.iataCode, position);
      this.byId.set(airport.id, airport);
      const cityPositions = this.positionsByCityCode.get(airport.iataCityCode);
      if (cityPositions) cityPositions.push(position);
      else this.positionsByCityCode.set(airport.iataCityCode, [position]);
    });
    const keys = searchKeys(this.ranked);
    this.wholeKeys = new PrefixIndex(keys.whole);
    this.wordKeys = new PrefixIndex(keys.word);
    this.innerKeys = new PrefixIndex(keys.inner);
    this.matchedInSearch = new Uint32Array(this.ranked.length);
  }

  /** Every airport, biggest first. */
  get airports(): readonly Airport[] {
    return this.ranked;
  }

  /** The airport with this IATA airport code (case-insensitive), if we have it. */
  getByIata(code: string): Airport | undefined {
    const position = this.positionByIata.get(code.toUpperCase());
    return position === undefined ? undefined : this.ranked[position];
  }

  /** The airport with this internal id (`arp_…`), if we have it. */
  getById(id: string): Airport | undefined {
    return this.byId.get(id);
  }

  /**
   * The airports a search slice's origin or destination code stands for: an airport code gives
   * that airport (it wins over a metro sharing its code, such as BKK); a metropolitan code
   * gives all its airports, biggest first; an unknown code gives none.
   */
  airportsForCode(code: string): Airport[] {
    const upper = code.toUpperCase();
    const airport = this.getByIata(upper);
    if (airport) return [airport];
    return (this.positionsByCityCode.get(upper) ?? []).map((position) => this.ranked[position]!);
  }

  /** Whether this is an airport code or a metropolitan code we know (case-insensitive). */
  isKnownCode(code: string): boolean {
    const upper = code.toUpperCase();
    return this.positionByIata.has(upper) || this.positionsByCityCode.has(upper);
  }

  /**
   * Up to `limit` airports matching `query`, best first: the airport whose IATA code it is,
   * then the airports of the metro whose code it is, then those whose name or city starts
   * with it, then those with a word of name or city starting with it, then those containing
   * it anywhere. Ties go to the bigger airport. Case- and accent-insensitive.
   */
  search(query: string, limit: number): Airport[] {
    const folded = foldForSearch(query);
    if (folded === "" || limit < 1) return [];
    const stamp = this.nextSearchStamp();
    const found: number[] = [];
    const code = folded.toUpperCase();
    const exact = this.positionByIata.get(code);
    if (exact !== undefined) this.takeInOrder([exact], found, limit, stamp);
    this.takeInOrder(this.positionsByCityCode.get(code) ?? [], found, limit, stamp);
    for (const keys of [this.wholeKeys, this.wordKeys, this.innerKeys]) {
      if (found.length >= limit) break;
      this.takeBest(keys, folded, found, limit, stamp);
    }
    return found.map((position) => this.ranked[position]!);
  }

  private takeInOrder(positions: readonly number[], found: number[], limit: number, stamp: number): void {
    for (const position of positions) {
      if (found.length >= limit) return;
      if (this.matchedInSearch[position] === stamp) continue;
      this.matchedInSearch[position] = stamp;
      found.push(position);
    }
  }

  /**
   * Appends the best not-yet-found airports whose keys start with `prefix`, as many as fit.
   * Airports seen but not taken are still stamped: that only happens when this tier fills
   * the results, so no later tier runs.
   */
  private takeBest(keys: PrefixIndex, prefix: string, found: number[], limit: number, stamp: number): void {
    const room = limit - found.length;
    const best: number[] = [];
    keys.forEachOwnerWithPrefix(prefix, (position) => {
      if (this.matchedInSearch[position] === stamp) return;
      this.matchedInSearch[position] = stamp;
      if (best.length === room && position > best[room - 1]!) return;
      insertAscending(best, position);
      if (best.length > room) best.pop();
    });
    found.push(...best);
  }

  private nextSearchStamp(): number {
    if (this.searchNumber === 0xffffffff) {
      this.matchedInSearch.fill(0);
      this.searchNumber = 0;
    }
    return ++this.searchNumber;
  }
}

let sharedIndex: AirportIndex | undefined;

/** The process-wide airport index over the packaged data, built on first use. */
export function airportIndex(): AirportIndex {
  sharedIndex ??= new AirportIndex(packagedAirports);
  return sharedIndex;
}

/** The whole, word-start and inner-word suffixes of each airport's folded name and city. */
function searchKeys(ranked: readonly Airport[]): { whole: KeyEntry[]; word: KeyEntry[]; inner: KeyEntry[] } {
  const whole: KeyEntry[] = [];
  const word: KeyEntry[] = [];
  const inner: KeyEntry[] = [];
  ranked.forEach((airport, owner) => {
    for (const text of new Set([foldForSearch(airport.name), foldForSearch(airport.cityName)])) {
      if (text === "") continue;
      whole.push({ key: text, owner });
      for (let start = 1; start < text.length; start++) {
        if (text[start] === " ") continue;
        (text[start - 1] === " " ? word : inner).push({ key: text.slice(start), owner });
      }
    }
  });
  return { whole, word, inner };
}

function insertAscending(sorted: number[], value: number): void {
  let index = sorted.length;
  sorted.push(value);
  while (index > 0 && sorted[index - 1]! > value) {
    sorted[index] = sorted[index - 1]!;
    index--;
  }
  sorted[index] = value;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
