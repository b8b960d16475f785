import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import type { AircraftRef, BaggageAllowance, CabinClass, CarrierRef, PassengerType } from "../gateway/contract/air";
import type { OfferConditions, SupplierOfferRef } from "../gateway/contract/offers";
import { answeredOfferKey, offerTotal, type AnsweredOffer, type SearchAnswer, type SearchHeader, type SharedSegment, type SharedSlice } from "./search-answer";
import type { OfferFee } from "../pricing/fee-rules";
import { ORIGINAL_SUPPLIER, type SupplierRef } from "../gateway/contract/offers";

/**
 * A search's offers as one stored value (docs/search-storage.md): JSON of positional arrays,
 * with carriers, aircraft, baggage allowances and fare conditions in tables of their own, then
 * deflated. What every offer has in common (tenant, times, passengers) is in the offer request's
 * columns, not here.
 */
interface EncodedSearch {
  /** The format's version, for readers of rows written by another. */
  v: 1;
  currency: string;
  carriers: Array<[iataCode: string, name: string]>;
  aircraft: Array<[iataCode: string, name: string]>;
  baggage: Array<Record<PassengerType, BaggageAllowance[]>>;
  conditions: Array<[changeAllowed: boolean, changePenalty: number | null, refundAllowed: boolean, refundPenalty: number | null]>;
  segments: EncodedSegment[];
  slices: Array<[origin: string, destination: string, departureDate: string, durationMinutes: number, segments: number[]]>;
  offers: Array<[owner: number, fareBrandName: string, slices: number[], fares: number[], taxes: number[], conditions: number, identityDocumentsRequired: 0 | 1, supplier?: number, supplierOffer?: EncodedSupplierOffer]>;
  /** The suppliers the offers came from (absent in rows written before offers named theirs: ORIGINAL_SUPPLIER). */
  suppliers?: Array<[id: string, name: string]>;
  /** Each offer's fee by position, null for none: its amount and its rule in `feeRules` (both absent when no offer has one, as in rows written before fees). */
  fees?: Array<[amount: number, rule: number] | null>;
  feeRules?: Array<[id: string, refundable: 0 | 1]>;
}

/** A supplier's own names for an offer (a remote supplier's), present only on offers that have them. */
type EncodedSupplierOffer = [id: string, passengerIds: string[], totalAmount: string, totalCurrency: string, requiresInstantPayment: 0 | 1, platformAccount?: 1];

type EncodedSegment = [
  flightKey: string,
  marketingCarrier: number,
  marketingCarrierFlightNumber: string,
  operatingCarrier: number,
  operatingCarrierFlightNumber: string,
  aircraft: number,
  origin: string,
  destination: string,
  departingAtUtc: string,
  arrivingAtUtc: string,
  departingAt: string,
  arrivingAt: string,
  durationMinutes: number,
  distanceKm: number,
  cabinClass: CabinClass,
  seatsLeft: number,
  baggage: number,
];

/**
 * Level 1 of deflate: on a 48-offer search ~0.05 ms for ~4 KB, where level 6 took about twice
 * as long for a few hundred bytes less.
 */
const DEFLATE = { level: 1, strategy: constants.Z_DEFAULT_STRATEGY };

/** The search's offers as stored in its offer request's row. */
export function encodeSearch(answer: SearchAnswer): Buffer {
  const carriers = new Table<CarrierRef>((carrier) => `${carrier.iataCode}|${carrier.name}`);
  const aircraft = new Table<AircraftRef>((plane) => `${plane.iataCode}|${plane.name}`);
  const baggage = new Table<SharedSegment["baggageAllowances"]>((allowances) => JSON.stringify(allowances));
  const suppliers = new Table<SupplierRef>((supplier) => supplier.id);
  const conditions = new Table<OfferConditions>((c) => `${c.changeBeforeDeparture.allowed}|${c.changeBeforeDeparture.penaltyAmount}|${c.refundBeforeDeparture.allowed}|${c.refundBeforeDeparture.penaltyAmount}`);
  const encoded: EncodedSearch = {
    v: 1,
    currency: answer.currency,
    carriers: [],
    aircraft: [],
    baggage: [],
    conditions: [],
    segments: answer.segments.map((segment) => [
      segment.flightKey,
      carriers.indexOf(segment.marketingCarrier),
      segment.marketingCarrierFlightNumber,
      carriers.indexOf(segment.operatingCarrier),
      segment.operatingCarrierFlightNumber,
      aircraft.indexOf(segment.aircraft),
      segment.origin,
      segment.destination,
      segment.departingAtUtc,
      segment.arrivingAtUtc,
      segment.departingAt,
      segment.arrivingAt,
      segment.durationMinutes,
      segment.distanceKm,
      segment.cabinClass,
      segment.seatsLeft,
      baggage.indexOf(segment.baggageAllowances),
    ]),
    slices: answer.slices.map((slice) => [slice.origin, slice.destination, slice.departureDate, slice.durationMinutes, slice.segments]),
    offers: answer.offers.map((offer) => {
      const encodedOffer: EncodedSearch["offers"][number] = [
        carriers.indexOf(offer.owner),
        offer.fareBrandName,
        offer.slices,
        offer.fares,
        offer.taxes,
        conditions.indexOf(offer.conditions),
        offer.passengerIdentityDocumentsRequired ? 1 : 0,
        suppliers.indexOf(offer.supplier),
      ];
      if (offer.supplierOffer) encodedOffer.push(encodeSupplierOffer(offer.supplierOffer));
      return encodedOffer;
    }),
  };
  encoded.suppliers = suppliers.values.map((supplier) => [supplier.id, supplier.name]);
  if (answer.offers.some((offer) => offer.fee !== null)) {
    const rules = new Table<OfferFee>((fee) => `${fee.ruleId}|${fee.refundable}`);
    encoded.fees = answer.offers.map(({ fee }) => (fee === null ? null : [fee.amount, rules.indexOf(fee)]));
    encoded.feeRules = rules.values.map((fee) => [fee.ruleId, fee.refundable ? 1 : 0]);
  }
  encoded.carriers = carriers.values.map((carrier) => [carrier.iataCode, carrier.name]);
  encoded.aircraft = aircraft.values.map((plane) => [plane.iataCode, plane.name]);
  encoded.baggage = baggage.values.map((allowances) => allowances as Record<PassengerType, BaggageAllowance[]>);
  encoded.conditions = conditions.values.map((c) => [c.changeBeforeDeparture.allowed, c.changeBeforeDeparture.penaltyAmount, c.refundBeforeDeparture.allowed, c.refundBeforeDeparture.penaltyAmount]);
  return deflateRawSync(JSON.stringify(encoded), DEFLATE);
}

/** The search stored as `bytes`, with what its offer request's columns hold (`header` but the currency, which is stored here). */
export function decodeSearch(bytes: Uint8Array, header: Omit<SearchHeader, "currency">): SearchAnswer {
  const encoded = JSON.parse(inflateRawSync(bytes).toString("utf8")) as EncodedSearch;
  if (encoded.v !== 1) throw new Error(`offer request ${header.requestId} is stored in format ${String(encoded.v)}, which this version cannot read`);
  const carriers = encoded.carriers.map(([iataCode, name]): CarrierRef => ({ iataCode, name }));
  const aircraft = encoded.aircraft.map(([iataCode, name]): AircraftRef => ({ iataCode, name }));
  const conditions = encoded.conditions.map(([changeAllowed, changePenalty, refundAllowed, refundPenalty]): OfferConditions => ({
    changeBeforeDeparture: { allowed: changeAllowed, penaltyAmount: changePenalty },
    refundBeforeDeparture: { allowed: refundAllowed, penaltyAmount: refundPenalty },
  }));
  const segments = encoded.segments.map(
    (s): SharedSegment => ({
      flightKey: s[0],
      marketingCarrier: carriers[s[1]]!,
      marketingCarrierFlightNumber: s[2],
      operatingCarrier: carriers[s[3]]!,
      operatingCarrierFlightNumber: s[4],
      aircraft: aircraft[s[5]]!,
      origin: s[6],
      destination: s[7],
      departingAtUtc: s[8],
      arrivingAtUtc: s[9],
      departingAt: s[10],
      arrivingAt: s[11],
      durationMinutes: s[12],
      distanceKm: s[13],
      cabinClass: s[14],
      seatsLeft: s[15],
      baggageAllowances: encoded.baggage[s[16]]!,
    }),
  );
  const slices = encoded.slices.map(([origin, destination, departureDate, durationMinutes, sliceSegments]): SharedSlice => ({ origin, destination, departureDate, durationMinutes, segments: sliceSegments }));
  const suppliers = (encoded.suppliers ?? []).map(([id, name]): SupplierRef => ({ id, name }));
  const feeRules = encoded.feeRules ?? [];
  const offers = encoded.offers.map(([owner, fareBrandName, offerSlices, fares, taxes, condition, documents, supplier, supplierOffer], index): AnsweredOffer => {
    const encodedFee = encoded.fees?.[index] ?? null;
    const rule = encodedFee && feeRules[encodedFee[1]]!;
    const fee: OfferFee | null = encodedFee && rule ? { amount: encodedFee[0], ruleId: rule[0], refundable: rule[1] === 1 } : null;
    return {
      supplier: (supplier === undefined ? undefined : suppliers[supplier]) ?? ORIGINAL_SUPPLIER,
      comparisonKey: answeredOfferKey({ segments, slices }, { slices: offerSlices }),
      owner: carriers[owner]!,
      fareBrandName,
      slices: offerSlices,
      fares,
      taxes,
      fee,
      totalAmount: offerTotal(fares, fee),
      conditions: conditions[condition]!,
      passengerIdentityDocumentsRequired: documents === 1,
      ...(supplierOffer && { supplierOffer: decodeSupplierOffer(supplierOffer) }),
    };
  });
  return { ...header, currency: encoded.currency, segments, slices, offers };
}

function encodeSupplierOffer(offer: SupplierOfferRef): EncodedSupplierOffer {
  const encoded = [offer.id, offer.passengerIds, offer.totalAmount, offer.totalCurrency, offer.requiresInstantPayment ? 1 : 0] as const;
  return offer.account === "platform" ? [...encoded, 1] : [...encoded];
}

function decodeSupplierOffer([id, passengerIds, totalAmount, totalCurrency, instant, platform]: EncodedSupplierOffer): SupplierOfferRef {
  return { id, passengerIds, totalAmount, totalCurrency, requiresInstantPayment: instant === 1, ...(platform === 1 && { account: "platform" as const }) };
}

/**
 * Values kept once each, in the order first seen, by a key of their content; a value seen before
 * as the same object is found without its key (suppliers share carriers and allowances).
 */
class Table<T extends object> {
  readonly values: T[] = [];
  private readonly byObject = new Map<T, number>();
  private readonly byKey = new Map<string, number>();

  constructor(private readonly keyOf: (value: T) => string) {}

  indexOf(value: T): number {
    let position = this.byObject.get(value);
    if (position !== undefined) return position;
    const key = this.keyOf(value);
    position = this.byKey.get(key);
    if (position === undefined) {
      position = this.values.push(value) - 1;
      this.byKey.set(key, position);
    }
    this.byObject.set(value, position);
    return position;
  }
}
