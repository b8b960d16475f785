import { supplierOfferKey } from "../../src/gateway/contract/comparison-key";
import { ORIGINAL_SUPPLIER } from "../../src/gateway/contract/offers";
import { beforeAll, describe, expect, it } from "vitest";
import { datedId, idTimeMs, newId } from "../../src/ids";
import { airportIndex } from "../../src/locations/airport-index";
import { ok } from "../../src/rest/envelope";
import { offerViewA, supplierResultsView } from "../../src/rest/offer.views";
import { searchAnswerJsonA } from "../../src/rest/search-answer-json";
import { offerAddress, offerIdOf, segmentIdOf, sliceIdOf } from "../../src/search/offer-ids";
import { priceOffer } from "../../src/search/price-offer";
import { answerSearch, offerAt, type OfferFeeOf, type SearchAnswer } from "../../src/search/search-answer";
import { decodeSearch, encodeSearch } from "../../src/search/search-encoding";
import { SearchResult } from "../../src/search/search.service";
import { SimulatedTimetable } from "../../src/connectors/simulated/timetable/simulated-timetable";
import type { CabinClass, PassengerType } from "../../src/gateway/contract/air";
import type { SupplierOffer, SupplierSearch } from "../../src/gateway/contract/offers";

/**
 * A search is stored once, what its offers share kept once: each offer read back from the stored
 * bytes is the offer as searched, field for field, and the search's answer renders every offer
 * in exactly the bytes its view serialises to.
 */

const index = airportIndex();
const airline = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });

interface Case {
  slices: Array<[origin: string, destination: string, date: string]>;
  cabin: CabinClass;
  passengers: Array<[type: PassengerType, id: string]>;
  maxConnections: number;
  currency: string;
  /** Pricing rules' fees on some offers (two rules, one refundable; every third offer none). */
  fees?: boolean;
}

/** A fee on offer `i` of three: two rules, the first refundable, none on the third. */
const someFees: OfferFeeOf = (_offer, fares) => {
  const position = feeCalls++ % 3;
  if (position === 2) return null;
  return { amount: 1 + Math.round(fares.reduce((sum, fare) => sum + fare, 0) / (position === 0 ? 40 : 25)), ruleId: position === 0 ? "prr_one" : "prr_two", refundable: position === 0 };
};
let feeCalls = 0;

const CASES: Case[] = [
  { slices: [["LON", "NYC", "2027-05-12"]], cabin: "economy", passengers: [["adult", "pas_a"]], maxConnections: 1, currency: "USD" },
  { slices: [["LHR", "JFK", "2027-05-12"], ["JFK", "LHR", "2027-05-19"]], cabin: "business", passengers: [["adult", "p1"], ["child", 'kid "one"'], ["infant_without_seat", "bébé\u2028"]], maxConnections: 1, currency: "EUR", fees: true },
  { slices: [["SIN", "SYD", "2027-06-01"]], cabin: "first", passengers: [["adult", "pas_x"], ["infant_without_seat", "pas_y"]], maxConnections: 2, currency: "JPY" },
  { slices: [["HND", "ICN", "2027-06-01"], ["ICN", "HND", "2027-06-03"], ["HND", "ICN", "2027-06-09"]], cabin: "economy", passengers: [["adult", "a"], ["adult", "b"]], maxConnections: 1, currency: "KWD", fees: true },
  { slices: [["LON", "NYC", "2027-05-14"]], cabin: "economy", passengers: [["adult", "pas_a"]], maxConnections: 1, currency: "JPY", fees: true },
  { slices: [["PAR", "TYO", "2027-07-20"]], cabin: "economy", passengers: [["adult", "a"], ["child", "c"]], maxConnections: 2, currency: "GBP" },
];

interface Searched {
  search: SupplierSearch;
  offers: SupplierOffer[];
  answer: SearchAnswer;
  result: SearchResult;
  currency: string;
}

async function searched(c: Case): Promise<Searched> {
  const search: SupplierSearch = {
    slices: c.slices.map(([origin, destination, date]) => ({ origins: index.airportsForCode(origin), destinations: index.airportsForCode(destination), departureDate: date })),
    passengers: c.passengers.map(([type, id]) => ({ id, type })),
    cabinClass: c.cabin,
    maxConnections: c.maxConnections,
    tenantId: "ten_test",
    environment: "sandbox",
  };
  const offers = await airline.search(search);
  const createdAt = new Date("2027-05-01T10:00:00.123Z");
  const header = { requestId: newId("orq"), tenantId: "ten_1", currency: c.currency, createdAt, expiresAt: new Date(createdAt.getTime() + 1_800_000), passengers: search.passengers };
  const answer = answerSearch(
    header,
    offers.map((offer) => ({ supplier: ORIGINAL_SUPPLIER, offer, comparisonKey: supplierOfferKey(offer) })),
    c.fees ? someFees : undefined,
  );
  const request = {
    slices: c.slices.map(([origin, destination, date]) => ({ origin, destination, departure_date: date })),
    passengers: search.passengers,
    cabin_class: c.cabin,
    max_connections: c.maxConnections,
  };
  const result = new SearchResult({ id: header.requestId, tenantId: "ten_1", request, offerCount: offers.length, expiresAt: header.expiresAt, createdAt }, search, answer, []);
  return { search, offers, answer, result, currency: c.currency };
}

describe("a search stored once", () => {
  let searches: Searched[] = [];
  beforeAll(async () => {
    searches = await Promise.all(CASES.map(searched));
  });

  it("has offers with connections and offers that share segments, in every case", () => {
    for (const { answer } of searches) expect(answer.offers.length, JSON.stringify(searches.map((s) => s.answer.offers.length))).toBeGreaterThan(3);
    const shared = searches.some(({ answer }) => answer.segments.length < answer.offers.reduce((sum, offer) => sum + offer.slices.length, 0));
    expect(shared, "some segment flown by several offers").toBe(true);
  });

  it("reads back from its stored bytes offer for offer, field for field", () => {
    for (const { answer } of searches) {
      const { requestId, tenantId, createdAt, expiresAt, passengers } = answer;
      const decoded = decodeSearch(encodeSearch(answer), { requestId, tenantId, createdAt, expiresAt, passengers });
      expect(decoded.offers.length).toBe(answer.offers.length);
      for (let i = 0; i < answer.offers.length; i++) expect(offerAt(decoded, i)).toStrictEqual(offerAt(answer, i));
    }
  });

  it("keeps each offer as the supplier priced it: fares, conditions, slices and segments", () => {
    for (const { answer, offers, currency } of searches) {
      offers.forEach((supplierOffer, i) => {
        const offer = offerAt(answer, i);
        const { payload, totalAmount } = priceOffer(supplierOffer, currency);
        const withoutIds = (slices: typeof payload.slices) => slices.map(({ id: _slice, segments, ...slice }) => ({ ...slice, segments: segments.map(({ id: _segment, ...segment }) => segment) }));
        expect(offer.totalAmount).toBe(totalAmount + (offer.payload.fee?.amount ?? 0));
        expect(offer.payload.passengers).toStrictEqual(payload.passengers);
        expect(offer.payload.conditions).toStrictEqual(payload.conditions);
        expect(withoutIds(offer.payload.slices)).toStrictEqual(withoutIds(payload.slices));
        expect([offer.payload.owner, offer.payload.fareBrandName, offer.payload.passengerIdentityDocumentsRequired]).toStrictEqual([
          payload.owner,
          payload.fareBrandName,
          payload.passengerIdentityDocumentsRequired,
        ]);
      });
    }
  });

  it("keeps each offer's fee, its rule and whether it is refundable, in its total and read back from the bytes", () => {
    const withFees = searches.filter((_, i) => CASES[i]!.fees);
    expect(withFees.length).toBeGreaterThan(0);
    for (const { answer } of withFees) {
      const fees = answer.offers.map((offer) => offer.fee);
      expect(fees.filter((fee) => fee === null).length).toBeGreaterThan(0);
      expect(new Set(fees.map((fee) => fee?.ruleId ?? null))).toEqual(new Set(["prr_one", "prr_two", null]));
      const { requestId, tenantId, createdAt, expiresAt, passengers } = answer;
      const decoded = decodeSearch(encodeSearch(answer), { requestId, tenantId, createdAt, expiresAt, passengers });
      decoded.offers.forEach((offer, i) => {
        expect(offer.fee).toStrictEqual(fees[i]);
        expect(offer.totalAmount).toBe(offer.fares.reduce((sum, fare) => sum + fare, 0) + (offer.fee?.amount ?? 0));
        const view = offerViewA(offerAt(decoded, i));
        const minor = (text: string) => Math.round(Number(text) * 10 ** (answer.currency === "JPY" ? 0 : answer.currency === "KWD" ? 3 : 2));
        expect(minor(view.base_amount) + minor(view.tax_amount) + minor(view.fee_amount)).toBe(minor(view.total_amount));
      });
    }
  });

  it("is a few kilobytes for a ~50-offer search", () => {
    const [first] = searches;
    expect(first!.answer.offers.length).toBeGreaterThanOrEqual(40);
    expect(encodeSearch(first!.answer).length).toBeLessThan(8 * 1024);
  });

  it("answers the search in exactly the bytes of its offers' views", () => {
    for (const { result } of searches) {
      const reference = JSON.stringify(
        ok({
          slices: result.offerRequest.request.slices,
          passengers: result.search.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type })),
          cabin_class: result.search.cabinClass,
          supplier_results: supplierResultsView(result.supplierResults),
          offers: result.offers.map(offerViewA),
        }),
      );
      expect(searchAnswerJsonA(result).toString("utf8")).toBe(reference);
    }
  });
});

describe("ids named after the search", () => {
  const requestId = newId("orq");

  it("dates a search's id to its millisecond, even after later ids were made (the clock moved back)", () => {
    const at = Date.parse("2027-03-01T10:00:00.123Z");
    newId("ord", at + 60_000);
    const [one, two] = [datedId("orq", at), datedId("orq", at)];
    expect([idTimeMs(one), idTimeMs(two)]).toEqual([at, at]);
    expect(one).not.toBe(two);
    expect(idTimeMs(offerAddress(offerIdOf(one, 7))!.requestId)).toBe(at);
  });

  it("finds the search and the position an offer id names", () => {
    for (const position of [0, 1, 31, 32, 49, 1023]) expect(offerAddress(offerIdOf(requestId, position))).toEqual({ requestId, index: position });
  });

  it("reads anything else as no offer id", () => {
    const id = offerIdOf(requestId, 5);
    for (const text of ["", "off_", requestId, id.slice(0, -1), `${id}0`, id.replace("off_", "orq_"), id.slice(0, -1) + "u", id.toUpperCase()]) expect(offerAddress(text)).toBeNull();
  });

  it("gives every offer, slice and segment of a search its own id", () => {
    const ids = Array.from({ length: 50 }, (_, position) => {
      const offerId = offerIdOf(requestId, position);
      return [offerId, ...[0, 1, 2, 3].map((s) => sliceIdOf(offerId, s)), ...[0, 1, 2, 3].flatMap((s) => [0, 1, 2].map((g) => segmentIdOf(offerId, s, g)))];
    }).flat();
    expect(new Set(ids).size).toBe(ids.length);
    expect(offerIdOf(requestId, 3) < offerIdOf(requestId, 40)).toBe(true);
  });
});
