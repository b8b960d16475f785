import { formatMinor } from "../money/format";
import type { SearchResult } from "../search/search.service";
import type { SearchAnswer, SharedSegment } from "../search/search-answer";
import { offerIdOf, segmentIdOf, sliceIdOf } from "../search/offer-ids";
import type { CarrierRef } from "../gateway/contract/air";
import type { OfferConditions, PenaltyCondition } from "../gateway/contract/offers";
import type { SupplierRef } from "../gateway/contract/offers";
import { formatIsoDuration } from "../time/local-time";
import { locationView, supplierResultsView } from "./offer.views";

const utf8 = (text: string) => Buffer.from(text, "utf8");

/** About what an offer of one adult and one or two segments takes (LON → NYC: ~3.7 KB); more grows the buffer. */
const BYTES_PER_OFFER = 4096;
const str = (value: string) => JSON.stringify(value);

/** Airports' JSON as bytes, rendered once per process (reference data). */
const locationBytes = new Map<string, Buffer>();

function locationJson(iataCode: string): Buffer {
  let bytes = locationBytes.get(iataCode);
  if (bytes === undefined) {
    bytes = utf8(JSON.stringify(locationView(iataCode)));
    locationBytes.set(iataCode, bytes);
  }
  return bytes;
}

/**
 * The Variant A search answer's body, rendered straight from the search as stored: what its
 * offers share (each segment with its airports, carriers and passengers' baggage, each slice's
 * airports) is rendered once per search and airports once per process, as UTF-8 bytes; each
 * offer adds only its ids and amounts, ASCII text written between them. The body is exactly
 * `JSON.stringify(ok({ slices, passengers, cabin_class, supplier_results, offers: offers.map(offerViewA) }))`
 * (test/unit/search-answer-json.test.ts), so the search answers every offer in the same bytes as
 * a later read of it, at a fraction of the cost of building the views, serialising them and
 * encoding ~150 KB of text (48 offers).
 */
export function searchAnswerJsonA(result: SearchResult): Buffer {
  const { search, offerRequest } = result;
  const body = new JsonBytes(BYTES_PER_OFFER * result.answer.offers.length + 1024);
  const slices = offerRequest.request.slices.map((slice) => `{"origin":${str(slice.origin)},"destination":${str(slice.destination)},"departure_date":${str(slice.departure_date)}}`);
  const passengers = search.passengers.map((passenger) => `{"id":${str(passenger.id)},"type":${str(passenger.type)}}`);
  const supplierResults = JSON.stringify(supplierResultsView(result.supplierResults));
  body.text(`{"success":true,"message":"OK","data":{"slices":[${slices.join(",")}],"passengers":[${passengers.join(",")}],"cabin_class":${str(search.cabinClass)},"supplier_results":${supplierResults},"offers":[`);
  new OfferRendering(result.answer, body).renderAll();
  body.ascii("]}}");
  return body.toBuffer();
}

/** `Buffer.prototype.latin1Write` and `utf8Write`: Node's own writers behind `write(text, at, encoding)`, without its argument checks. */
type WritableBuffer = Buffer & { latin1Write(text: string, offset: number): number; utf8Write(text: string, offset: number): number };

/**
 * JSON written into one growing buffer: ASCII text (ids, amounts, times, keys) byte for byte,
 * other text as UTF-8, bytes rendered before copied in, and a stretch written earlier copied
 * again (an offer's segment that an earlier offer flew).
 */
class JsonBytes {
  private buffer: WritableBuffer;
  length = 0;

  /** `expectedBytes`: about the body's size, so that it is allocated once, and not much more than it needs. */
  constructor(expectedBytes: number) {
    this.buffer = Buffer.allocUnsafe(expectedBytes) as WritableBuffer;
  }

  /** Text known to be ASCII. */
  ascii(text: string): void {
    this.reserve(text.length);
    this.length += this.buffer.latin1Write(text, this.length);
  }

  /** Any text. */
  text(text: string): void {
    this.reserve(3 * text.length);
    this.length += this.buffer.utf8Write(text, this.length);
  }

  bytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Writes again what was written from `start` to `end`. */
  again(start: number, end: number): void {
    this.reserve(end - start);
    this.length += this.buffer.copy(this.buffer, this.length, start, end);
  }

  toBuffer(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.length + bytes)) as WritableBuffer;
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** Where a piece was first written in the body: later uses copy it from there. */
type Written = [start: number, end: number];

/** One search's offers written to a body: a segment or slice is rendered where it first appears, and copied from there after. */
class OfferRendering {
  private readonly segmentTails: Array<Written | undefined>;
  private readonly sliceMiddles: Array<Written | undefined>;
  private readonly carriers = new Map<CarrierRef, string>();
  private readonly suppliers = new Map<string, string>();
  private readonly conditions = new Map<OfferConditions, string>();
  /** Each segment's passengers (`[{"passenger_id":…,"baggages":[…]}, …]`), by cabin and allowances. */
  private readonly segmentPassengers = new Map<string, Map<SharedSegment["baggageAllowances"], string>>();
  private readonly times: string;
  /** Each passenger's fare up to its amount: `{"id":…,"type":…,"fare_amount":"`. */
  private readonly farePrefixes: string[];

  constructor(
    private readonly answer: SearchAnswer,
    private readonly body: JsonBytes,
  ) {
    this.segmentTails = new Array<Written | undefined>(answer.segments.length);
    this.sliceMiddles = new Array<Written | undefined>(answer.slices.length);
    this.times = `,"expires_at":"${answer.expiresAt.toISOString()}","created_at":"${answer.createdAt.toISOString()}"`;
    this.farePrefixes = answer.passengers.map((passenger) => `{"id":${str(passenger.id)},"type":${str(passenger.type)},"fare_amount":"`);
  }

  renderAll(): void {
    for (let index = 0; index < this.answer.offers.length; index++) {
      if (index > 0) this.body.ascii(",");
      this.render(index);
    }
  }

  private render(index: number): void {
    const { answer, body } = this;
    const offer = answer.offers[index]!;
    const { currency } = answer;
    const id = offerIdOf(answer.requestId, index);
    const tax = offer.taxes.reduce((sum, amount) => sum + amount, 0);
    const fee = offer.fee?.amount ?? 0;
    const fareBrand = str(offer.fareBrandName);
    body.ascii(
      `{"id":"${id}","total_amount":"${formatMinor(offer.totalAmount, currency)}","total_currency":"${currency}",` +
        `"base_amount":"${formatMinor(offer.totalAmount - tax - fee, currency)}","base_currency":"${currency}","tax_amount":"${formatMinor(tax, currency)}","tax_currency":"${currency}",` +
        `"fee_amount":"${formatMinor(fee, currency)}","fee_currency":"${currency}"${this.times},"owner":`,
    );
    body.text(`${this.carrier(offer.owner)},"supplier":${this.supplier(offer.supplier)},"comparison_key":${str(offer.comparisonKey)},"slices":[`);
    for (let s = 0; s < offer.slices.length; s++) {
      const sliceIndex = offer.slices[s]!;
      body.ascii(`${s > 0 ? "," : ""}{"id":"${sliceIdOf(id, s)}"`);
      this.sliceMiddle(sliceIndex);
      body.text(`${fareBrand},"segments":[`);
      const segments = answer.slices[sliceIndex]!.segments;
      for (let g = 0; g < segments.length; g++) {
        body.ascii(`${g > 0 ? "," : ""}{"id":"${segmentIdOf(id, s, g)}"`);
        this.segmentTail(segments[g]!);
      }
      body.ascii("]}");
    }
    body.ascii(`],"passengers":[`);
    for (let p = 0; p < offer.fares.length; p++) body.text(`${p > 0 ? "," : ""}${this.farePrefixes[p]}${formatMinor(offer.fares[p]!, currency)}"}`);
    body.text(`],"passenger_identity_documents_required":${offer.passengerIdentityDocumentsRequired},"conditions":${this.conditionsJson(offer.conditions)}}`);
  }

  /** A slice from its origin to its fare brand's key: `,"origin":…,"duration":"PT7H","fare_brand_name":`. */
  private sliceMiddle(sliceIndex: number): void {
    this.once(this.sliceMiddles, sliceIndex, () => {
      const slice = this.answer.slices[sliceIndex]!;
      this.airports(slice.origin, slice.destination);
      this.body.text(`,"departure_date":${str(slice.departureDate)},"duration":"${formatIsoDuration(slice.durationMinutes)}","fare_brand_name":`);
    });
  }

  /** A segment after its id, to its end. */
  private segmentTail(segmentIndex: number): void {
    this.once(this.segmentTails, segmentIndex, () => {
      const segment = this.answer.segments[segmentIndex]!;
      this.airports(segment.origin, segment.destination);
      this.body.text(
        `,"departing_at":${str(segment.departingAt)},"arriving_at":${str(segment.arrivingAt)},"duration":"${formatIsoDuration(segment.durationMinutes)}",` +
          `"distance":"${segment.distanceKm}","marketing_carrier":${this.carrier(segment.marketingCarrier)},` +
          `"marketing_carrier_flight_number":${str(segment.marketingCarrierFlightNumber)},"operating_carrier":${this.carrier(segment.operatingCarrier)},` +
          `"operating_carrier_flight_number":${str(segment.operatingCarrierFlightNumber)},"aircraft":${this.carrier(segment.aircraft)},` +
          `"passengers":[${this.passengersOf(segment)}]}`,
      );
    });
  }

  /** `write()`s piece `index` where it first appears, and copies it from there after. */
  private once(written: Array<Written | undefined>, index: number, write: () => void): void {
    const { body } = this;
    const at = written[index];
    if (at) return body.again(...at);
    const start = body.length;
    write();
    written[index] = [start, body.length];
  }

  /** `,"origin":{…},"destination":{…}` */
  private airports(origin: string, destination: string): void {
    this.body.ascii(`,"origin":`);
    this.body.bytes(locationJson(origin));
    this.body.ascii(`,"destination":`);
    this.body.bytes(locationJson(destination));
  }

  private passengersOf(segment: SharedSegment): string {
    let byAllowances = this.segmentPassengers.get(segment.cabinClass);
    if (!byAllowances) this.segmentPassengers.set(segment.cabinClass, (byAllowances = new Map()));
    let text = byAllowances.get(segment.baggageAllowances);
    if (text === undefined) {
      text = this.answer.passengers
        .map((passenger) => {
          const bags = segment.baggageAllowances[passenger.type].map((bag) => `{"type":${str(bag.type)},"quantity":${bag.quantity}}`);
          return `{"passenger_id":${str(passenger.id)},"cabin_class":${str(segment.cabinClass)},"baggages":[${bags.join(",")}]}`;
        })
        .join(",");
      byAllowances.set(segment.baggageAllowances, text);
    }
    return text;
  }

  private supplier(ref: SupplierRef): string {
    let text = this.suppliers.get(ref.id);
    if (text === undefined) {
      text = `{"id":${str(ref.id)},"name":${str(ref.name)}}`;
      this.suppliers.set(ref.id, text);
    }
    return text;
  }

  private carrier(ref: CarrierRef): string {
    let text = this.carriers.get(ref);
    if (text === undefined) {
      text = `{"iata_code":${str(ref.iataCode)},"name":${str(ref.name)}}`;
      this.carriers.set(ref, text);
    }
    return text;
  }

  private conditionsJson(conditions: OfferConditions): string {
    let text = this.conditions.get(conditions);
    if (text === undefined) {
      text = `{"change_before_departure":${this.penalty(conditions.changeBeforeDeparture)},"refund_before_departure":${this.penalty(conditions.refundBeforeDeparture)}}`;
      this.conditions.set(conditions, text);
    }
    return text;
  }

  private penalty(condition: PenaltyCondition): string {
    const { currency } = this.answer;
    return condition.penaltyAmount === null
      ? `{"allowed":${condition.allowed},"penalty_amount":null,"penalty_currency":null}`
      : `{"allowed":${condition.allowed},"penalty_amount":"${formatMinor(condition.penaltyAmount, currency)}","penalty_currency":"${currency}"}`;
  }
}
