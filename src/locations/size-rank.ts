/**
 * The world's busiest passenger airports, busiest first (approximate 2024 annual passenger
 * totals). Hand-maintained because no data set shipped on npm carries traffic figures; it
 * only orders ties, so approximate is enough.
 */
export const BUSIEST_AIRPORTS: readonly string[] = [
  "ATL", "DXB", "DFW", "HND", "LHR", "DEN", "IST", "ORD", "DEL", "PVG", "LAX", "CAN", "ICN", "CDG",
  "SIN", "PEK", "AMS", "MAD", "JFK", "BKK", "FRA", "SZX", "CLT", "LAS", "MCO", "KUL", "MIA", "BOM",
  "BCN", "HKG", "DOH", "SEA", "PHX", "SFO", "CGK", "MNL", "EWR", "CKG", "PKX", "FCO", "JED", "KMG",
  "IAH", "SHA", "XIY", "YYZ", "HGH", "MEX", "GRU", "BOS", "LGW", "SAW", "MUC", "SYD", "BLR", "SVO",
];

/** OurAirports size classes we sell; other types (heliport, closed, …) have none. */
const SIZE_CLASS_BY_TYPE: Readonly<Record<string, number>> = {
  large_airport: 3,
  medium_airport: 2,
  small_airport: 1,
  seaplane_base: 1,
};
/** Above every OurAirports class. */
const BUSIEST_CLASS = 4;
/** Runway lengths have at most five digits of feet, so they never outweigh a class. */
const CLASS_WEIGHT = 100_000;

const TRAFFIC_ORDER = new Map(BUSIEST_AIRPORTS.map((code, index) => [code, BUSIEST_AIRPORTS.length - index]));

/** The size class of an OurAirports airport type, or undefined for a type we do not sell. */
export function sizeClassOf(ourAirportsType: string): number | undefined {
  return SIZE_CLASS_BY_TYPE[ourAirportsType];
}

/**
 * An airport's `sizeRank` (larger = bigger or busier): the busiest airports first, in traffic
 * order; then the OurAirports size class; within a class, the longest runway in feet, a rough
 * proxy for the largest aircraft, and so the traffic, an airport handles.
 */
export function sizeRank(iataCode: string, sizeClass: number, longestRunwayFt: number): number {
  const traffic = TRAFFIC_ORDER.get(iataCode);
  if (traffic !== undefined) return BUSIEST_CLASS * CLASS_WEIGHT + traffic;
  return sizeClass * CLASS_WEIGHT + Math.min(Math.max(longestRunwayFt, 0), CLASS_WEIGHT - 1);
}

/** The size class a `sizeRank` was built from: 4 the busiest airports, then 3, 2, 1 for large, medium, small. */
export function sizeClassOfRank(rank: number): number {
  return Math.floor(rank / CLASS_WEIGHT);
}
