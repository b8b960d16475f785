import { expect } from "vitest";

/**
 * Independent checks of offers as a client sees them: time-zone arithmetic straight from Intl
 * (not from the server's own time module) and money in integer minor units parsed from the
 * API's decimal strings.
 */

const MINUTE_MS = 60_000;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** UTC offset in minutes (east positive) of an IANA zone at an instant, read from Intl. */
export function intlOffsetMinutes(timeZone: string, instantMs: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, formatter);
  }
  const name = formatter
    .formatToParts(instantMs)
    .find((part) => part.type === "timeZoneName")!.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) throw new Error(`unexpected offset ${name}`);
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/** Epoch ms of a local wall time written `YYYY-MM-DDTHH:MM:SS` without offset, read as if UTC. */
export function wallMs(local: string): number {
  expect(local, "a local time without offset").toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  return Date.parse(`${local}Z`);
}

/**
 * The instant at which clocks in `timeZone` show `local`, and the offset then. Asserts that the
 * wall time exists there (it is not in a spring-forward gap): Intl's offset at the instant maps
 * it back to exactly the same wall time.
 */
export function localToInstant(local: string, timeZone: string): { instantMs: number; offsetMinutes: number } {
  const wall = wallMs(local);
  let instantMs = wall - intlOffsetMinutes(timeZone, wall) * MINUTE_MS;
  instantMs = wall - intlOffsetMinutes(timeZone, instantMs) * MINUTE_MS;
  const offsetMinutes = intlOffsetMinutes(timeZone, instantMs);
  expect(instantMs + offsetMinutes * MINUTE_MS, `${local} exists in ${timeZone}`).toBe(wall);
  return { instantMs, offsetMinutes };
}

/** `PT7H55M` / `PT45M` / `PT26H` / `P1DT2H` → minutes. */
export function isoDurationMinutes(duration: string): number {
  const match = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?$/.exec(duration);
  if (!match || duration === "P" || duration === "PT") throw new Error(`not an ISO 8601 duration: ${duration}`);
  return Number(match[1] ?? 0) * 1440 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/** Decimal places of a currency's minor unit, from Intl (USD 2, JPY 0). */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A decimal amount string as integer minor units, asserting it has exactly the currency's decimals. */
export function toMinor(amount: string, currency: string): number {
  const digits = minorDigits(currency);
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${digits}}$`);
  expect(amount, `${amount} ${currency}`).toMatch(pattern);
  return Number(amount.replace(".", ""));
}

interface SegmentA {
  origin: { iata_code: string; time_zone: string };
  destination: { iata_code: string; time_zone: string };
  departing_at: string;
  arriving_at: string;
  duration: string;
}

export interface TimedSegment {
  origin: string;
  destination: string;
  departureMs: number;
  arrivalMs: number;
  departureOffset: number;
  arrivalOffset: number;
}

/**
 * A Variant A segment's times as instants, checked: the local times exist in their airports'
 * zones and the arrival instant is the departure instant plus the segment's duration, so
 * (arriving local − departing local) = duration + (destination offset − origin offset).
 */
export function timedSegment(segment: SegmentA): TimedSegment {
  const departure = localToInstant(segment.departing_at, segment.origin.time_zone);
  const arrival = localToInstant(segment.arriving_at, segment.destination.time_zone);
  const durationMinutes = isoDurationMinutes(segment.duration);
  expect(durationMinutes, `${segment.origin.iata_code}-${segment.destination.iata_code} duration`).toBeGreaterThan(0);
  const localDifference = (wallMs(segment.arriving_at) - wallMs(segment.departing_at)) / MINUTE_MS;
  expect(localDifference, `${segment.origin.iata_code} ${segment.departing_at} → ${segment.destination.iata_code} ${segment.arriving_at}`).toBe(
    durationMinutes + arrival.offsetMinutes - departure.offsetMinutes,
  );
  return {
    origin: segment.origin.iata_code,
    destination: segment.destination.iata_code,
    departureMs: departure.instantMs,
    arrivalMs: arrival.instantMs,
    departureOffset: departure.offsetMinutes,
    arrivalOffset: arrival.offsetMinutes,
  };
}

/**
 * Every slice of a Variant A offer is a chain: it starts at the slice's origin, each segment
 * departs from the airport the previous one arrived at, after it arrived (in UTC), and the last
 * ends at the slice's destination; and each slice departs after the previous slice lands.
 * Returns the timed segments per slice.
 */
export function expectChainedSlices(offer: { id: string; slices: Array<{ origin: { iata_code: string }; destination: { iata_code: string }; segments: SegmentA[] }> }): TimedSegment[][] {
  const timed = offer.slices.map((slice) => slice.segments.map(timedSegment));
  let previousArrivalMs = -Infinity;
  offer.slices.forEach((slice, sliceIndex) => {
    const segments = timed[sliceIndex]!;
    expect(segments.length, `${offer.id} slice ${sliceIndex} has segments`).toBeGreaterThan(0);
    expect(segments[0]!.origin, `${offer.id} slice ${sliceIndex} origin`).toBe(slice.origin.iata_code);
    expect(segments.at(-1)!.destination, `${offer.id} slice ${sliceIndex} destination`).toBe(slice.destination.iata_code);
    for (const segment of segments) {
      expect(segment.departureMs, `${offer.id} ${segment.origin}-${segment.destination} departs after the previous arrival`).toBeGreaterThan(previousArrivalMs);
      expect(segment.arrivalMs).toBeGreaterThan(segment.departureMs);
      previousArrivalMs = segment.arrivalMs;
    }
    for (let i = 1; i < segments.length; i++) {
      expect(segments[i]!.origin, `${offer.id} slice ${sliceIndex} segment ${i} departs where segment ${i - 1} arrived`).toBe(segments[i - 1]!.destination);
    }
  });
  return timed;
}

/** The total of a Variant A offer equals the sum of its passengers' fares plus the platform's fee, in integer minor units. */
export function expectTotalIsSumOfFares(offer: { id: string; total_amount: string; total_currency: string; fee_amount: string; passengers: Array<{ fare_amount: string }> }): void {
  const sum = offer.passengers.reduce((total, passenger) => total + toMinor(passenger.fare_amount, offer.total_currency), 0);
  expect(toMinor(offer.total_amount, offer.total_currency), `${offer.id} total`).toBe(sum + toMinor(offer.fee_amount, offer.total_currency));
}
