import type { StoredOffer } from "../../src/search/offer-payload";
import { offerAddress } from "../../src/search/offer-ids";
import { offerAt, type SearchAnswer } from "../../src/search/search-answer";
import { decodeSearch } from "../../src/search/search-encoding";
import { call } from "./client";
import type { TestServer } from "./test-server";

/** A date `days` ahead, as `YYYY-MM-DD`. */
export function daysAhead(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Runs one Variant A search (LHR → JFK, one adult, a month ahead) with `key` and returns the
 * offer ids: a quick way to give a tenant stored, tenant-owned records.
 */
export async function searchOffers(server: TestServer, key: string, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await call(server, "POST", "/v1/air/search", {
    key,
    headers,
    body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }] },
  });
  if (response.status !== 200) throw new Error(`search failed: ${response.status} ${JSON.stringify(response.body)}`);
  const ids = (response.body.data.offers as Array<{ id: string }>).map((offer) => offer.id);
  if (ids.length === 0) throw new Error("search returned no offers");
  return ids;
}

/** The offer as stored, read straight from its search's row (test setup: the API does not show every field, e.g. seats for sale). */
export async function storedOfferOf(server: Pick<TestServer, "db">, offerId: string): Promise<StoredOffer> {
  const address = offerAddress(offerId);
  if (!address) throw new Error(`${offerId} is not an offer id`);
  const row = await server.db.prisma.offerRequest.findUniqueOrThrow({ where: { id: address.requestId } });
  const search = decodeSearch(row.offers, {
    requestId: row.id,
    tenantId: row.tenantId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    passengers: (row.request as unknown as { passengers: SearchAnswer["passengers"] }).passengers,
  });
  return offerAt(search, address.index);
}
