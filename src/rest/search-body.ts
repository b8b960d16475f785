import { z } from "zod";
import { fromVariantA, fromVariantB, searchInputA, searchInputB, type SearchRequest } from "../search/search.inputs";
import { parseInput } from "../validation/parse-input";

/** Which variant a search is (docs/rest-api.md#two-interface-variants): a body with a top-level `data` object is Variant B, anything else Variant A. */
function isVariantB(body: unknown): boolean {
  return typeof body === "object" && body !== null && !Array.isArray(body) && typeof (body as { data?: unknown }).data === "object";
}

/** A search body as parsed, with the variant it came in. */
export interface ParsedSearch {
  variant: "A" | "B";
  request: SearchRequest;
}

/** A search body in either variant; 400 `invalid_search_params` naming the field. */
export function parseSearch(body: unknown): ParsedSearch {
  return isVariantB(body)
    ? { variant: "B", request: fromVariantB(parseInput(searchInputB, body, "invalid_search_params")) }
    : { variant: "A", request: fromVariantA(parseInput(searchInputA, body, "invalid_search_params")) };
}

/** The schema of a search body, either variant, for the OpenAPI document (`parseSearch` applies it). */
export const searchBodySchema = z.union([searchInputA, searchInputB]) as unknown as z.ZodType<ParsedSearch>;
