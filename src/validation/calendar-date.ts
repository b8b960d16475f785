import { z } from "zod";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The earliest year a date may name. JavaScript's Date.UTC reads years 0–99 as 1900–1999, and no
 * date of travel, birth or document validity lies before 1900: earlier ones are invalid input.
 */
export const EARLIEST_YEAR = 1900;

/** A real calendar date written `YYYY-MM-DD` (rejects 2026-02-30), in EARLIEST_YEAR or later. */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value) || Number(value.slice(0, 4)) < EARLIEST_YEAR) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A date field of an input: `YYYY-MM-DD`, a real date, from EARLIEST_YEAR on. */
export const calendarDateInput = z.string().refine(isCalendarDate, `must be a date written YYYY-MM-DD, in ${EARLIEST_YEAR} or later`);

/** A month field of an input: `YYYY-MM`, from EARLIEST_YEAR on. */
export const calendarMonthInput = z
  .string()
  .refine((value) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value) && Number(value.slice(0, 4)) >= EARLIEST_YEAR, `must be a month written YYYY-MM, in ${EARLIEST_YEAR} or later`);

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
