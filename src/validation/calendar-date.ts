/**
 * Days since 1970-01-01 of an ISO date, or of the date of a local date-time, years past 9999
 * (`+010000-01-01T17:35`) included: dates are compared as dates, never as text.
 */
export function dayNumber(isoDate: string): number {
  const ms = Date.parse(`${isoDate.split("T")[0]}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO date: ${isoDate}`);
  return Math.floor(ms / 86_400_000);
}

/** Whole years from `from` to `to`, both `YYYY-MM-DD` (a person's age on a date). */
export function yearsBetween(from: string, to: string): number {
  const years = Number(to.slice(0, 4)) - Number(from.slice(0, 4));
  return to.slice(5) < from.slice(5) ? years - 1 : years;
}
