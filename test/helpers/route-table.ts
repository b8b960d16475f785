import { operations } from "../../src/context/operations";
import type { RestRoute } from "../../src/rest/route";
import { restRoutes } from "../../src/rest/routes";

/**
 * The server's own REST route table, for suites that must cover every route (new routes are
 * covered without touching the test): which take a body, which key may call each.
 */

export type AnyRoute = RestRoute<any, any>;

export { restRoutes };

/** Routes that declare a body (a schema or a parser). */
export const routesWithBody: readonly AnyRoute[] = restRoutes.filter((route) => route.body !== undefined || route.parseBody !== undefined);

/** `/v1/tenants/:id/keys/:keyId` → `["id", "keyId"]`. */
export function pathParams(url: string): string[] {
  return [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
}

/** Path parameters that are values, not ids of records (a statement's month): the id sweeps leave them be. */
const VALUE_PARAMS = new Set(["month"]);

/** The path parameters of `url` that name records. */
export function idParams(url: string): string[] {
  return pathParams(url).filter((param) => !VALUE_PARAMS.has(param));
}

/** The URL with each `:name` replaced by `values(name)`, URL-encoded. */
export function fillPath(url: string, values: (name: string) => string): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(values(name)));
}

/** Whether the owner key calls the route (owner-only operations) or a tenant's key does. */
export function isOwnerRoute(route: AnyRoute): boolean {
  return operations[route.operation].audience === "owner";
}

/** "POST /v1/air/orders" */
export function routeName(route: AnyRoute): string {
  return `${route.method} ${route.url}`;
}

/**
 * The URL with the characters of its fixed segments at the positions `encode` picks (counted
 * across those segments, `/` and `:params` aside) percent-encoded: `/v1/wallet` with the first
 * picked is `/%761/wallet`, a path the router reads as `/v1/wallet`.
 */
export function percentEncoded(url: string, encode: (position: number) => boolean): string {
  let position = 0;
  return url
    .split("/")
    .map((segment) => (segment.startsWith(":") ? segment : [...segment].map((character) => (encode(position++) ? `%${character.charCodeAt(0).toString(16)}` : character)).join("")))
    .join("/");
}

/** How many characters `percentEncoded` may encode in the URL. */
export function encodableLength(url: string): number {
  return url.split("/").filter((segment) => !segment.startsWith(":")).join("").length;
}

/** Spellings of a URL that route as the URL itself: its first character encoded, every character, every other one. */
export function encodedSpellings(url: string): string[] {
  return [percentEncoded(url, (position) => position === 0), percentEncoded(url, () => true), percentEncoded(url, (position) => position % 2 === 1)];
}
