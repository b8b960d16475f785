/**
 * Time-zone arithmetic on Node's built-in Intl (ICU with the IANA tz database): no dependency,
 * the same rules every other Node API uses, updated with Node. Only the UTC offset comes from
 * Intl; everything else is plain integer arithmetic on epoch milliseconds, which keeps a
 * conversion at a few hundred nanoseconds once the offset is cached.
 *
 * Vocabulary: an *instant* is epoch milliseconds (UTC); a *wall time* is the same number read
 * as if the local clock were UTC (Date.UTC of the local fields). wall = instant + offset.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Every current tz rule changes offset on a quarter-hour boundary in UTC (02:00 local in a
 * whole-, half- or quarter-hour zone), and at most once a day. */
const OFFSET_STEP_MS = 15 * MINUTE_MS;
/** Marks a UTC day during which the zone's offset changes. */
const CHANGES_THIS_DAY = Number.NaN;
/** Bounds the memo; clearing it only costs a few Intl calls. */
const MAX_CACHED_OFFSETS = 100_000;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** Zone → UTC day number → the offset all that day, or CHANGES_THIS_DAY. */
const dayOffsets = new Map<string, Map<number, number>>();
/** Zone → quarter-hour number → offset, for the days the clocks change. */
const quarterHourOffsets = new Map<string, Map<number, number>>();
let cachedEntries = 0;

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for an unknown zone, which is what a caller passing garbage deserves.
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The offset from Intl itself, parsing the "GMT+05:45" / "GMT" tail of a `longOffset` format. */
function intlOffsetMinutes(timeZone: string, instantMs: number): number {
  const formatted = offsetFormatter(timeZone).format(instantMs);
  const match = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(formatted);
  if (!match) throw new Error(`Unexpected time-zone offset format: ${formatted}`);
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]) + Math.round(Number(match[4] ?? 0) / 60);
  return match[1] === "-" ? -minutes : minutes;
}

/**
 * The UTC offset in minutes (east positive) of an IANA zone at an instant, e.g. -300 for
 * America/New_York in January and -240 in July. Memoised per zone and UTC day: two Intl calls
 * settle a whole day unless the clocks change during it.
 */
export function zoneOffsetMinutes(timeZone: string, instantMs: number): number {
  const day = Math.floor(instantMs / DAY_MS);
  let offset = dayOffsets.get(timeZone)?.get(day);
  if (offset === undefined) {
    const first = intlOffsetMinutes(timeZone, day * DAY_MS);
    const last = intlOffsetMinutes(timeZone, (day + 1) * DAY_MS - OFFSET_STEP_MS);
    offset = first === last ? first : CHANGES_THIS_DAY;
    remember(dayOffsets, timeZone, day, offset);
  }
  if (!Number.isNaN(offset)) return offset;
  // The day the clocks change: look up the quarter hour itself.
  const quarterHour = Math.floor(instantMs / OFFSET_STEP_MS);
  let exact = quarterHourOffsets.get(timeZone)?.get(quarterHour);
  if (exact === undefined) {
    exact = intlOffsetMinutes(timeZone, quarterHour * OFFSET_STEP_MS);
    remember(quarterHourOffsets, timeZone, quarterHour, exact);
  }
  return exact;
}

function remember(cache: Map<string, Map<number, number>>, timeZone: string, key: number, offset: number): void {
  if (cachedEntries >= MAX_CACHED_OFFSETS) {
    dayOffsets.clear();
    quarterHourOffsets.clear();
    cachedEntries = 0;
  }
  let zoneCache = cache.get(timeZone);
  if (!zoneCache) {
    zoneCache = new Map();
    cache.set(timeZone, zoneCache);
  }
  zoneCache.set(key, offset);
  cachedEntries++;
}

/**
 * The instant at which the clocks of `timeZone` show `wallMs` (see the module note), resolved
 * like Temporal's "compatible" disambiguation: a wall time repeated when clocks go back takes
 * the earlier instant; one skipped when clocks go forward is moved forward by the gap.
 */
export function wallTimeToInstant(timeZone: string, wallMs: number): number {
  const offsetBefore = zoneOffsetMinutes(timeZone, wallMs - DAY_MS);
  const offsetAfter = zoneOffsetMinutes(timeZone, wallMs + DAY_MS);
  const earlier = wallMs - Math.max(offsetBefore, offsetAfter) * MINUTE_MS;
  const later = wallMs - Math.min(offsetBefore, offsetAfter) * MINUTE_MS;
  if (zoneOffsetMinutes(timeZone, earlier) * MINUTE_MS + earlier === wallMs) return earlier;
  if (zoneOffsetMinutes(timeZone, later) * MINUTE_MS + later === wallMs) return later;
  // In a gap: read the wall time with the offset in force before the change.
  return wallMs - offsetBefore * MINUTE_MS;
}

/**
 * Whether the local clock of `timeZone` shows the wall time of this instant only once: false
 * inside the hour that fall-back repeats (02:30 happens twice), so the local time alone would
 * not say which instant is meant.
 */
export function wallTimeOccursOnce(timeZone: string, instantMs: number): boolean {
  const wallMs = instantToWallTime(timeZone, instantMs);
  const candidates = new Set([zoneOffsetMinutes(timeZone, wallMs - DAY_MS), zoneOffsetMinutes(timeZone, wallMs + DAY_MS)].map((offset) => wallMs - offset * MINUTE_MS));
  let occurrences = 0;
  for (const candidate of candidates) if (instantToWallTime(timeZone, candidate) === wallMs) occurrences++;
  return occurrences === 1;
}

/** The wall time (module note) of `timeZone` at an instant. */
export function instantToWallTime(timeZone: string, instantMs: number): number {
  return instantMs + zoneOffsetMinutes(timeZone, instantMs) * MINUTE_MS;
}

/**
 * The instant of a local date and time in an IANA zone.
 * @param localDate `YYYY-MM-DD`
 * @param minuteOfDay minutes after local midnight (may exceed a day)
 */
export function localToInstant(timeZone: string, localDate: string, minuteOfDay: number): number {
  return wallTimeToInstant(timeZone, parseIsoDate(localDate) + minuteOfDay * MINUTE_MS);
}

/**
 * The local date-time of an instant in an IANA zone, ISO 8601 without offset
 * (`2026-03-07T08:35:00`), the way Variant A shows departure and arrival times.
 */
export function instantToLocalIso(timeZone: string, instantMs: number): string {
  return new Date(instantToWallTime(timeZone, instantMs)).toISOString().slice(0, 19);
}

/** The local calendar date (`YYYY-MM-DD`) of an instant in an IANA zone. */
export function instantToLocalDate(timeZone: string, instantMs: number): string {
  return dayToIsoDate(instantToLocalDay(timeZone, instantMs));
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date; throws on anything else. */
export function localDay(date: string): number {
  return parseIsoDate(date) / DAY_MS;
}

/** Days since 1970-01-01 of the local calendar date of an instant in an IANA zone. */
export function instantToLocalDay(timeZone: string, instantMs: number): number {
  return Math.floor(instantToWallTime(timeZone, instantMs) / DAY_MS);
}

/** The `YYYY-MM-DD` date of a day number (days since 1970-01-01). */
export function dayToIsoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** An instant as an ISO 8601 UTC string without milliseconds (`2026-03-07T08:35:00Z`). */
export function instantToUtcIso(instantMs: number): string {
  return `${new Date(instantMs).toISOString().slice(0, 19)}Z`;
}

/** Epoch milliseconds of UTC midnight of a `YYYY-MM-DD` date; throws on anything else. */
export function parseIsoDate(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  const ms = match ? new Date(0).setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  }
  return ms;
}

/** Day of the week of a `YYYY-MM-DD` date, 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(parseIsoDate(date)).getUTCDay();
}

/** A whole-minute duration in ISO 8601 (`PT7H25M`, `PT45M`, `PT26H`); hours are not folded into days. */
export function formatIsoDuration(totalMinutes: number): string {
  if (!Number.isInteger(totalMinutes) || totalMinutes < 0) {
    throw new RangeError(`Duration must be a non-negative whole number of minutes: ${totalMinutes}`);
  }
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `PT${minutes}M`;
  return minutes === 0 ? `PT${hours}H` : `PT${hours}H${minutes}M`;
}
