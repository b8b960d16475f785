import type { ApiClient, Fixtures } from "./fixtures";
import { allTicketed, bookAll, fundTickets, withFreshKey } from "./order-fixtures";

const CABINS = ["economy", "premium_economy", "business", "first"];
/** Later dates each order is asked to move to: with the cabins, more distinct searches than the supplier cache keeps (2,000). */
const LATER_DAYS = 300;
/** Orders on different routes, so their searches never share a cache entry. */
const ORDERS = 2;

interface ChangeableOrder {
  id: string;
  slices: Array<{ id: string; departure_date: string; origin: { iata_code: string }; destination: { iata_code: string } }>;
  offer: { conditions: { change_before_departure: { allowed: boolean } } };
}

const routeOf = (order: ChangeableOrder) => `${order.slices[0]!.origin.iata_code}-${order.slices[0]!.destination.iata_code}`;

function laterDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Ticketed one-slice orders on different routes whose fares allow changes (orders of other
 * offers taken stay booked, unticketed), `count` of them.
 */
async function changeableOrders(api: ApiClient, fixtures: Fixtures, count: number): Promise<ChangeableOrder[]> {
  const chosen = new Map<string, ChangeableOrder>();
  for (let round = 0; chosen.size < count; round++) {
    if (round === 10) throw new Error(`only ${chosen.size} of ${count} changeable one-slice orders on different routes found`);
    for (const id of await bookAll(api, fixtures, await fixtures.offers.take(8))) {
      const { data: order } = await api.expectOk<{ data: ChangeableOrder }>("GET", `/v1/air/orders/${id}`, { key: fixtures.tenantKey });
      if (chosen.size < count && order.slices.length === 1 && order.offer.conditions.change_before_departure.allowed && !chosen.has(routeOf(order))) chosen.set(routeOf(order), order);
    }
  }
  await fundTickets(api, fixtures, count);
  for (const order of chosen.values()) await api.expectOk("POST", `/v1/air/orders/${order.id}/actions/ticket`, { headers: withFreshKey(fixtures) });
  await allTicketed(api, fixtures);
  return [...chosen.values()];
}

/**
 * Change request bodies, sent in turn: each order's one slice moved to each of the next 300 days in
 * each cabin (2 orders × 4 cabins × 300 days = 2,400 different airline searches, more than the
 * supplier cache ever holds, so each asks the airline afresh).
 */
export async function changeRequestBodies(api: ApiClient, fixtures: Fixtures): Promise<unknown[]> {
  const orders = await changeableOrders(api, fixtures, ORDERS);
  return Array.from({ length: LATER_DAYS }, (_, index) =>
    CABINS.flatMap((cabin_class) =>
      orders.map(({ id, slices: [slice] }) => ({
        order_id: id,
        slices: {
          remove: [{ slice_id: slice!.id }],
          add: [{ origin: slice!.origin.iata_code, destination: slice!.destination.iata_code, departure_date: laterDate(slice!.departure_date, index + 1), cabin_class }],
        },
      })),
    ),
  ).flat();
}
