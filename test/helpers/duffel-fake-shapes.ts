/**
 * The parts of Duffel's offers that the connector does not read but Duffel always sends, in the
 * shapes of its API reference: full places (with their city), airlines with their logos and
 * conditions of carriage, cabin amenities, per-slice conditions, stops, terminals, emissions and
 * loyalty programmes. They make the fake's answers as large as Duffel's (229 offers of a real
 * LHR→JFK search were 1.5 MB), which is what the client must read without stalling the event loop.
 */

/** The airlines whose loyalty programmes an offer accepts: Duffel lists every partner, often hundreds. */
const LOYALTY_PROGRAMMES = Array.from({ length: 340 }, (_, index) => `${String.fromCharCode(65 + (index % 26))}${String.fromCharCode(65 + Math.floor(index / 26))}`);

/** A Duffel place of type `airport`, with its city. */
export function duffelAirport(iataCode: string) {
  return {
    type: "airport",
    id: `arp_${iataCode.toLowerCase()}_gb`,
    name: `${iataCode} International Airport`,
    iata_code: iataCode,
    icao_code: `E${iataCode}`,
    iata_country_code: "GB",
    iata_city_code: iataCode,
    city_name: `${iataCode} City`,
    latitude: 51.470311,
    longitude: -0.458118,
    time_zone: "Europe/London",
    city: { type: "city", id: `cit_${iataCode.toLowerCase()}_gb`, name: `${iataCode} City`, iata_code: iataCode, iata_country_code: "GB", latitude: null, longitude: null, time_zone: null },
  };
}

/** A Duffel airline, with the links Duffel gives for it. */
export function duffelAirline(carrier: { iata_code: string; name: string }) {
  const code = carrier.iata_code;
  return {
    id: `arl_0000${code}`,
    name: carrier.name,
    iata_code: code,
    logo_symbol_url: `https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/${code}.svg`,
    logo_lockup_url: `https://assets.duffel.com/img/airlines/for-light-background/full-color-lockup/${code}.svg`,
    conditions_of_carriage_url: `https://www.example.com/${code.toLowerCase()}/legal/conditions-of-carriage`,
  };
}

/** A segment passenger's cabin as Duffel describes it. */
export function duffelCabin(cabinClass: string) {
  return {
    name: cabinClass,
    marketing_name: "Economy",
    amenities: { wifi: { available: true, cost: "paid" }, seat: { pitch: "31", legroom: "standard", type: null }, power: { available: true } },
  };
}

/** What Duffel adds to each slice (its conditions) and segment (stops, terminals, emissions). */
export const sliceExtras = () => ({
  comparison_key: `ck_${Math.random().toString(36).slice(2, 12)}`,
  ngs_shelf: 1,
  conditions: { change_before_departure: null, priority_boarding: false, priority_check_in: false, advance_seat_selection: false },
});

export const segmentExtras = () => ({ stops: [], origin_terminal: "5", destination_terminal: "8", media: [] });

/** What Duffel adds to each offer. */
export const offerExtras = () => ({
  partial: false,
  private_fares: [],
  available_services: null,
  total_emissions_kg: "460",
  supported_loyalty_programmes: LOYALTY_PROGRAMMES,
  supported_passenger_identity_document_types: ["passport", "tax_id"],
  allowed_passenger_identity_document_types: ["passport"],
});
