import { z } from "zod";

/**
 * Values many inputs share, each a zod schema whose every rule reaches /openapi.json as JSON
 * Schema (docs/request-rules.md): a date, a place code, a whole number written in a query string.
 */

/** The id of a record a client names (an offer, an order, a passenger, a service): 1 to 64 characters. */
export const recordId = z.string().min(1).max(64);

/**
 * The earliest year a date may name. JavaScript's Date.UTC reads years 0–99 as 1900–1999, and no
 * date of travel, birth or document validity lies before 1900: earlier ones are invalid input.
 */
export const EARLIEST_YEAR = 1900;
const FROM_EARLIEST_YEAR = /^(?:19|[2-9]\d)\d\d-/;

/**
 * A real calendar date written `YYYY-MM-DD` (2026-02-30 is refused), in EARLIEST_YEAR or later:
 * `format: date` and its patterns.
 */
export const calendarDate = z.iso
  .date({ message: "must be a date written YYYY-MM-DD" })
  .regex(FROM_EARLIEST_YEAR, `must be in ${EARLIEST_YEAR} or later`)
  .meta({ format: "date" });

/** A month written `YYYY-MM`, in EARLIEST_YEAR or later. */
export const yearMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month written YYYY-MM")
  .regex(FROM_EARLIEST_YEAR, `must be in ${EARLIEST_YEAR} or later`);

/** A three-letter IATA airport or city code, in either case; upper-cased once parsed. */
export const placeCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be a three-letter IATA airport or city code")
  .transform((code) => code.toUpperCase());

/**
 * A whole number from `min` to `max`, given as a number (GraphQL, JSON) or as its digits (a REST
 * query parameter, where "1e1", "0x0A" and "10.0" are refused): `type: integer` with its range.
 */
export const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : value),
    z.number({ error: "must be a whole number" }).int("must be a whole number").min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );
