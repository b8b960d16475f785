import { z } from "zod";
import { refuseHiddenCharactersInKeys, SHOWN_TEXT_PATTERN } from "../validation/shown-text";

export const MAX_METADATA_PAIRS = 20;

/**
 * Key-value metadata, as Stripe's: at most 20 pairs, string keys up to 40 characters, string
 * values up to 500. Strings only, so what a client stores is exactly what it reads back. Keys
 * are names a program matches and a console lists: none may hold a hidden character (422);
 * values are the client's own text, kept as sent.
 */
const KEY_LENGTH = { minLength: 1, maxLength: 40 };

export const metadataSchema = z
  .record(z.string().min(KEY_LENGTH.minLength).max(KEY_LENGTH.maxLength), z.string().max(500))
  .refine((value) => Object.keys(value).length <= MAX_METADATA_PAIRS, { message: `at most ${MAX_METADATA_PAIRS} key-value pairs` })
  .superRefine(refuseHiddenCharactersInKeys)
  .meta({ maxProperties: MAX_METADATA_PAIRS, propertyNames: { type: "string", ...KEY_LENGTH, pattern: SHOWN_TEXT_PATTERN } });

export type Metadata = z.infer<typeof metadataSchema>;

/** Metadata read back from a JSON column. */
export function asMetadata(value: unknown): Metadata {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Metadata) : {};
}
