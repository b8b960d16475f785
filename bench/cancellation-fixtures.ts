import type { ApiClient, Fixtures } from "./fixtures";
import { allTicketed, bookAll, fundTickets, withFreshKey } from "./order-fixtures";

/** Requests in flight at once from the bench process while it prepares orders or confirms quotes. */
const PARALLEL = 32;

type Page<T> = { data: { items: T[]; pagination: { total: number; nextCursor: string | null } } };

/** Runs `work` over `items`, `parallel` at a time: each of `parallel` workers takes the next item as soon as it is done. */
async function inPool<T>(items: T[], work: (item: T) => Promise<unknown>, parallel = PARALLEL): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}

/** `count` TICKETED orders of the bench tenant (booked, paid, the airline's answers awaited: TICKETING_DELAY_MS=0). */
export async function ticketedOrders(api: ApiClient, fixtures: Fixtures, count: number): Promise<string[]> {
  await fundTickets(api, fixtures, count);
  const ids = await bookAll(api, fixtures, await fixtures.offers.take(count));
  await inPool(ids, (id) => api.expectOk("POST", `/v1/air/orders/${id}/actions/ticket`, { headers: withFreshKey(fixtures) }));
  await allTicketed(api, fixtures);
  return ids;
}

async function refundedOrders(api: ApiClient, fixtures: Fixtures): Promise<number> {
  const page = await api.expectOk<Page<unknown>>("GET", "/v1/air/orders?status=REFUNDED&limit=1", { key: fixtures.tenantKey });
  return page.data.pagination.total;
}

/**
 * The quotes nobody confirmed yet: newest first, down to the first confirmed one (every quote the
 * scenario made since its last settle is newer than the quotes it confirmed then).
 */
async function openQuotes(api: ApiClient, fixtures: Fixtures): Promise<string[]> {
  const open: string[] = [];
  let cursor: string | null = null;
  do {
    const path: string = `/v1/air/order_cancellations?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: Page<{ id: string; confirmed_at: string | null }> = await api.expectOk("GET", path, { key: fixtures.tenantKey });
    for (const quote of page.data.items) {
      if (quote.confirmed_at !== null) return open;
      open.push(quote.id);
    }
    cursor = page.data.pagination.nextCursor;
  } while (cursor);
  return open;
}

/**
 * The rest of a cancellation after its quote: confirms every open quote of the bench tenant,
 * `PARALLEL` at a time, then waits until each of their orders is REFUNDED (the refund job has
 * credited the wallet).
 */
export async function confirmOpenQuotes(api: ApiClient, fixtures: Fixtures, deadlineMs = 120_000): Promise<void> {
  const refundedBefore = await refundedOrders(api, fixtures);
  const quotes = await openQuotes(api, fixtures);
  await inPool(quotes, (id) => api.expectOk("POST", `/v1/air/order_cancellations/${id}/actions/confirm`, { key: fixtures.tenantKey }));
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const refunded = (await refundedOrders(api, fixtures)) - refundedBefore;
    if (refunded >= quotes.length) return;
    if (Date.now() > deadline) throw new Error(`${quotes.length - refunded} of ${quotes.length} confirmed cancellations not yet REFUNDED after ${deadlineMs} ms`);
    // Each look costs the server a list query: often enough to end the run within 50 ms of the last refund.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
