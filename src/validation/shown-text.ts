import { z } from "zod";
import type { ErrorCode } from "../errors/catalogue";
import { codePointName, hiddenCharacters, SHOWN_CHARACTER } from "./hidden-characters";

/** What an issue raised here carries: parseInput answers with this code instead of its default. */
export const HIDDEN_CHARACTER_ERROR: { errorCode: ErrorCode } = { errorCode: "invalid_field_value" };

const RULE = "must not hold characters that are invisible or change the direction of text";

/** JSON Schema's statement of text that holds no hidden character. */
export const SHOWN_TEXT_PATTERN = `^(?:${SHOWN_CHARACTER})*$`;

/**
 * The same for text that is trimmed first: whitespace around it (which trimming removes, line
 * breaks and tabs included) is allowed, and `nonBlank` asks for something besides.
 */
function trimmedShownTextPattern(nonBlank: boolean): string {
  return `^\\s*${nonBlank ? "(?!\\s)" : ""}(?:${SHOWN_CHARACTER})${nonBlank ? "+" : "*"}\\s*$`;
}

/**
 * A refinement for text a console shows (a tenant's name, a key's label): one holding a hidden
 * character (hidden-characters.ts) is refused with 422 invalid_field_value, naming the first one
 * and where it is, never echoing the text.
 */
export function refuseHiddenCharacters(text: string, context: z.RefinementCtx): void {
  const [first] = hiddenCharacters(text);
  if (first) context.addIssue({ code: "custom", message: `${RULE} (${codePointName(first.codePoint)} at character ${first.position + 1})`, params: HIDDEN_CHARACTER_ERROR });
}

/** The same for the keys of an object (metadata keys): the field is the object. */
export function refuseHiddenCharactersInKeys(value: Record<string, unknown>, context: z.RefinementCtx): void {
  for (const [index, key] of Object.keys(value).entries()) {
    const [first] = hiddenCharacters(key);
    if (first) {
      context.addIssue({ code: "custom", message: `keys ${RULE} (${codePointName(first.codePoint)} in key ${index + 1})`, params: HIDDEN_CHARACTER_ERROR });
      return;
    }
  }
}

/**
 * Text a console shows, as a client sends it: trimmed, then `min`–`max` characters holding no
 * hidden character (422 `invalid_field_value` naming the first one), stated in the document as
 * a pattern.
 */
export function shownText(limits: { min?: number; max: number }) {
  const min = limits.min ?? 0;
  return z.string().trim().min(min).max(limits.max).superRefine(refuseHiddenCharacters).meta({ pattern: trimmedShownTextPattern(min > 0) });
}
