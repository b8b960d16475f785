import { expect } from "vitest";
import { call, type Endpoint } from "./client";
import { toMinor } from "./flight-checks";

/** Every seat element of a REST seat map, cabin by cabin, front to back. */
export function seatsOfMap(map: any): any[] {
  return map.cabins.flatMap((cabin: any) => cabin.rows.flatMap((row: any) => row.sections.flatMap((section: any) => section.elements.filter((element: any) => element.type === "seat"))));
}

/** GET /v1/air/seat_maps?<subject> (e.g. `offer_id=off_…`), asserting 200: one map per segment. */
export async function seatMaps(server: Endpoint, key: string, subject: string): Promise<any[]> {
  const response = await call(server, "GET", `/v1/air/seat_maps?${subject}`, { key });
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  return response.body.data;
}

/** A seat of the map for sale to `passengerId` (a priced one when there is one, none of `skip`): its designator, its service for the passenger, its segment. */
export function seatForSale(map: any, passengerId = "p1", skip: string[] = []): { designator: string; service: any; segmentId: string } {
  const forSale = seatsOfMap(map)
    .filter((seat) => !skip.includes(seat.designator))
    .flatMap((seat) => seat.available_services.filter((service: any) => service.passenger_id === passengerId).map((service: any) => ({ designator: seat.designator, service, segmentId: map.segment_id })));
  const seat = forSale.find((candidate) => toMinor(candidate.service.total_amount, candidate.service.total_currency) > 0) ?? forSale[0];
  if (!seat) throw new Error(`no seat for ${passengerId} on map ${map.id}`);
  return seat;
}
