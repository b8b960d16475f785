import { z } from "zod";
import { calendarDate, recordId } from "../../validation/input-values";

/**
 * The rules of a passenger's values (docs/rest-api.md#orders-and-ticketing): how a name, an
 * e-mail, a phone number and a travel document are written. The domain checks its commands by
 * them (order-commands.ts), and each transport's wire schema states them, so /openapi.json
 * documents exactly what the domain refuses.
 */

/** Letters first, then letters, marks, spaces, hyphens, apostrophes and dots, as names are written on passports. */
const NAME = /^\p{L}[\p{L}\p{M}' .-]*$/u;
/** E.164: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
/** Codes ICU names that are not countries issuing passports. */
const NOT_COUNTRIES = new Set(["ZZ", "EU", "EZ", "UN", "QO"]);

/** An ISO 3166-1 alpha-2 country code ICU knows (from Node's built-in data). */
function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;
}

const LETTERS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
/** Every code `isCountryCode` takes, as the document lists them. */
const COUNTRY_CODES = LETTERS.flatMap((first) => LETTERS.map((second) => first + second)).filter(isCountryCode);

/** The id the search gave a passenger (or the client chose). */
export const passengerId = recordId;

export const passengerType = z.enum(["adult", "child", "infant_without_seat"]);

export const passengerTitle = z.enum(["mr", "ms", "mrs", "dr"]);

export const passengerGender = z.enum(["m", "f"]);

// Trimmed, then checked: whitespace around a name or a number is allowed, as the stated patterns say.
export const personName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(NAME, "must be written in letters as on the travel document")
  .meta({ pattern: `^\\s*${NAME.source.slice(1, -1)}\\s*$` });

export const emailAddress = z.email({ message: "must be an e-mail address" }).max(320);

export const phoneNumber = z.string().regex(E164, "must be an E.164 number, e.g. +442080160508");

export const identityDocumentType = z.enum(["passport", "national_identity_card"]);

/** A document's number, upper-cased once read. */
export const documentNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{5,20}$/, "must be 5 to 20 letters and digits")
  .meta({ pattern: "^\\s*[A-Za-z0-9]{5,20}\\s*$" })
  .transform((number) => number.toUpperCase());

export const countryCode = z.string().refine(isCountryCode, "must be an ISO 3166-1 alpha-2 country code, e.g. GB").meta({ enum: COUNTRY_CODES });

/** A document's expiry, YYYY-MM-DD (after the last flight: passenger-rules.ts). */
export const documentExpiry = calendarDate;

/** A date of birth, YYYY-MM-DD (the age its type needs: passenger-rules.ts). */
export const birthDate = calendarDate;

/** A frequent flyer programme by its airline's two-character IATA code. */
export const loyaltyAirlineCode = z.string().regex(/^[A-Z0-9]{2}$/, "must be an airline's two-character IATA code, e.g. BA");

/** A frequent flyer account's number, upper-cased once read. */
export const loyaltyAccountNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,30}$/, "must be 1 to 30 letters and digits")
  .meta({ pattern: "^\\s*[A-Za-z0-9]{1,30}\\s*$" })
  .transform((number) => number.toUpperCase());

/** A passenger carries at most 10 loyalty programme accounts. */
export const loyaltyAccountList = <T extends z.ZodType>(account: T) => z.array(account).max(10);

/** On an adult: the infant on their lap, by the offer's passenger id. */
export const infantPassengerId = recordId;

/** A passenger carries at most 4 travel documents. */
export const identityDocumentList = <T extends z.ZodType>(document: T) => z.array(document).max(4);

/** An order names 1 to 9 passengers, as a search does. */
export const passengerList = <T extends z.ZodType>(passenger: T) => z.array(passenger).min(1, "at least one passenger").max(9, "at most 9 passengers");

/** A service booked with an order, by id; its quantity a whole number from 1 to 9 (within the service's own maximum: service-selection.ts). */
export const serviceQuantity = z.number().int().min(1).max(9);

/** An order is booked with at most 100 services. */
export const serviceList = <T extends z.ZodType>(service: T) => z.array(service).max(100);

/**
 * A passenger's own details under the names both /v1 and the compatible surface (src/compat/) give
 * them, which /v1 Variant A shares with the API it imitates: one list, so the two wire schemas
 * cannot drift apart.
 */
export const passengerDetailFields = {
  title: passengerTitle.nullable().optional(),
  given_name: personName,
  family_name: personName,
  born_on: birthDate,
  gender: passengerGender,
  email: emailAddress,
  phone_number: phoneNumber,
};
