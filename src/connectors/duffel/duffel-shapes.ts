/**
 * Duffel API v2 shapes, as far as the connector reads and writes them (Duffel's API reference and
 * the types of its official JavaScript client). Amounts are decimal strings in the named currency.
 */

export interface DuffelPlace {
  iata_code: string;
  name: string;
  type?: "airport" | "city";
  time_zone?: string | null;
  city_name?: string | null;
}

export interface DuffelAirline {
  iata_code: string | null;
  name: string;
  id?: string;
}

export interface DuffelBaggage {
  type: "checked" | "carry_on";
  quantity: number;
}

export interface DuffelSegmentPassenger {
  passenger_id: string;
  cabin_class: "economy" | "premium_economy" | "business" | "first";
  cabin_class_marketing_name?: string;
  baggages: DuffelBaggage[];
}

export interface DuffelSegment {
  id: string;
  origin: DuffelPlace;
  destination: DuffelPlace;
  /** Local time at the origin, without offset: `2026-03-07T08:35:00`. */
  departing_at: string;
  arriving_at: string;
  marketing_carrier: DuffelAirline;
  marketing_carrier_flight_number: string;
  operating_carrier: DuffelAirline;
  operating_carrier_flight_number: string | null;
  aircraft: { iata_code: string; name: string } | null;
  /** ISO 8601 duration, `PT7H5M`. */
  duration: string | null;
  distance?: string | null;
  passengers: DuffelSegmentPassenger[];
}

export interface DuffelSlice {
  id: string;
  origin: DuffelPlace;
  destination: DuffelPlace;
  duration: string | null;
  fare_brand_name: string | null;
  segments: DuffelSegment[];
}

export interface DuffelCondition {
  allowed: boolean;
  penalty_amount: string | null;
  penalty_currency: string | null;
}

export interface DuffelPaymentRequirements {
  requires_instant_payment: boolean;
  payment_required_by: string | null;
  price_guarantee_expires_at: string | null;
}

export interface DuffelAvailableService {
  id: string;
  type: "baggage" | "seat";
  total_amount: string;
  total_currency: string;
  passenger_ids: string[];
  segment_ids: string[];
  maximum_quantity: number;
  metadata: Record<string, unknown>;
}

export interface DuffelOffer {
  id: string;
  live_mode: boolean;
  created_at: string;
  expires_at: string;
  total_amount: string;
  total_currency: string;
  base_amount: string;
  base_currency: string;
  tax_amount: string | null;
  tax_currency: string | null;
  owner: DuffelAirline;
  slices: DuffelSlice[];
  passengers: Array<{ id: string; type: "adult" | "child" | "infant_without_seat" }>;
  conditions: { change_before_departure: DuffelCondition | null; refund_before_departure: DuffelCondition | null };
  payment_requirements: DuffelPaymentRequirements;
  passenger_identity_documents_required: boolean;
  available_services?: DuffelAvailableService[] | null;
}

export interface DuffelOfferRequest {
  id: string;
  live_mode: boolean;
  created_at: string;
  cabin_class: string | null;
  slices: Array<{ origin: DuffelPlace; destination: DuffelPlace; departure_date: string }>;
  passengers: Array<{ id: string; type: "adult" | "child" | "infant_without_seat" }>;
  /** Present when the request asked for `return_offers` (the default). */
  offers?: DuffelOffer[];
}

/** The body of POST /air/offer_requests. */
export interface DuffelOfferRequestBody {
  slices: Array<{ origin: string; destination: string; departure_date: string }>;
  /** An adult by `type`; a child or an infant by `age` (Duffel prices them by it). */
  passengers: Array<{ type: "adult" | "child" | "infant_without_seat" } | { age: number }>;
  cabin_class: string;
  max_connections: number;
}

export interface DuffelOrderPassenger {
  id: string;
  given_name: string;
  family_name: string;
  born_on: string;
  title: "mr" | "ms" | "mrs" | "miss" | "dr";
  gender: "m" | "f";
  email: string;
  phone_number: string;
  /** One document at most (Duffel's rule); required when the offer says `passenger_identity_documents_required`. */
  identity_documents?: DuffelIdentityDocument[];
  loyalty_programme_accounts?: DuffelLoyaltyProgrammeAccount[];
  /** On an adult: the Duffel id of the infant without a seat they hold on their lap. */
  infant_passenger_id?: string | null;
}

/** A passenger's identity document as Duffel takes it (OrderPassengerIdentityDocument). */
export interface DuffelIdentityDocument {
  type: "passport";
  unique_identifier: string;
  /** ISO 3166-1 alpha-2 */
  issuing_country_code: string;
  /** YYYY-MM-DD */
  expires_on: string;
}

export interface DuffelLoyaltyProgrammeAccount {
  airline_iata_code: string;
  account_number: string;
}

/** The body of POST /air/orders. */
export interface DuffelCreateOrderBody {
  type: "instant" | "hold";
  selected_offers: [string];
  passengers: DuffelOrderPassenger[];
  /** Instant orders pay now; a hold pays later (POST /air/payments). */
  payments?: Array<{ type: "balance"; amount: string; currency: string }>;
  services?: Array<{ id: string; quantity: number }>;
  metadata?: Record<string, string>;
}

export interface DuffelOrder {
  id: string;
  live_mode: boolean;
  created_at: string;
  /** Null while Duffel has not confirmed an order it accepted (202). */
  booking_reference: string | null;
  total_amount: string;
  total_currency: string;
  owner: DuffelAirline;
  slices: DuffelSlice[];
  passengers: Array<{ id: string; given_name: string; family_name: string }>;
  payment_status: { awaiting_payment: boolean; payment_required_by: string | null; price_guarantee_expires_at: string | null };
  documents: Array<{ type: string; unique_identifier: string; passenger_ids?: string[] }>;
  cancelled_at: string | null;
  metadata: Record<string, string> | null;
  /** The services booked with the order and added after (each under an id of the order's, not the offer's). */
  services?: Array<{ id: string; type: string; quantity: number; total_amount: string; total_currency: string }>;
  airline_initiated_changes?: DuffelAirlineInitiatedChange[];
}

export interface DuffelPayment {
  id: string;
  type: "balance";
  amount: string;
  currency: string;
  created_at: string;
  live_mode: boolean;
}

export interface DuffelOrderCancellation {
  id: string;
  order_id: string;
  refund_amount: string | null;
  refund_currency: string | null;
  refund_to: string | null;
  expires_at: string | null;
  confirmed_at: string | null;
  created_at: string;
  live_mode: boolean;
  /** The credits the airline gave when it refunds to `airline_credits` or a `voucher` (once confirmed). */
  airline_credits?: DuffelAirlineCredit[] | null;
}

export interface DuffelAirlineCredit {
  id: string;
  passenger_id: string | null;
  credit_amount: string | null;
  credit_currency: string | null;
  credit_code: string | null;
  credit_name: string | null;
  expires_at: string | null;
  issued_on: string | null;
}

export interface DuffelOrderChangeOffer {
  id: string;
  order_change_id: string | null;
  change_total_amount: string | null;
  change_total_currency: string | null;
  new_total_amount: string | null;
  new_total_currency: string;
  /** The airline's penalty: `penalty_total_*` in Duffel's API reference, `penalty_*` in its JavaScript client's types. */
  penalty_total_amount?: string | null;
  penalty_total_currency?: string | null;
  penalty_amount?: string | null;
  penalty_currency?: string | null;
  expires_at: string;
  slices: { add: DuffelSlice[]; remove: DuffelSlice[] };
}

export interface DuffelOrderChangeRequest {
  id: string;
  order_id: string;
  created_at: string;
  slices: { add: Array<{ origin: string; destination: string; departure_date: string; cabin_class: string }>; remove: Array<{ slice_id: string }> };
  order_change_offers: DuffelOrderChangeOffer[];
}

export interface DuffelOrderChange {
  id: string;
  order_id: string;
  change_total_amount: string | null;
  change_total_currency: string | null;
  new_total_amount: string | null;
  new_total_currency: string;
  confirmed_at: string | null;
  expires_at: string;
  slices: { add: DuffelSlice[]; remove: DuffelSlice[] };
}

export interface DuffelAirlineInitiatedChange {
  id: string;
  order_id: string;
  action_taken: "accepted" | "cancelled" | "changed" | null;
  action_taken_at: string | null;
  available_actions: Array<"accept" | "cancel" | "change" | "update">;
  added: DuffelSlice[];
  removed: DuffelSlice[];
  created_at: string;
  updated_at: string;
}

/** A seat (an empty `available_services`: not for sale) or another place of a row; `restricted_seat_general` is a seat too. */
export interface DuffelSeatElement {
  type: "seat" | "restricted_seat_general" | "bassinet" | "empty" | "exit_row" | "lavatory" | "galley" | "closet" | "stairs";
  designator?: string;
  name?: string;
  disclosures?: string[];
  available_services?: Array<{ id: string; passenger_id: string; total_amount: string; total_currency: string }>;
}

export interface DuffelSeatMap {
  id: string;
  segment_id: string;
  slice_id: string;
  cabins: Array<{
    cabin_class: string;
    deck: number;
    aisles: number;
    wings: { first_row_index: number; last_row_index: number } | null;
    rows: Array<{ sections: Array<{ elements: DuffelSeatElement[] }> }>;
  }>;
}



/** Every Duffel error answer: one or more errors, and the request's id. */
export interface DuffelErrorBody {
  errors: Array<{ code: string; title: string; message: string; type: string; documentation_url?: string }>;
  meta: { status: number; request_id: string };
}

/** A list answer: its page, and the cursor of the next one (null on the last). */
/** A webhook as Duffel lists it (`GET /air/webhooks`); its secret is shown only when it is created. */
export interface DuffelWebhook {
  id: string;
  url: string;
  created_at: string;
}

export interface DuffelPage<T> {
  data: T[];
  meta: { after: string | null; before: string | null; limit: number };
}
