// Duffel's test-mode journeys (docs/duffel.md#test-mode-journeys), run by `scripts/duffel-try.ts
// --journeys` with a tenant's `duffel_test_` connection: each special route of Duffel's sandbox,
// asked as the connector asks it, and what Duffel answered against what its test mode promises.
// The tests' fake replays the same routes (test/helpers/duffel-fake.ts).
import { catalogueError } from "../src/connectors/duffel/duffel-errors";
import { DuffelApiError } from "../src/connectors/duffel/duffel-client";
import type { DuffelConnector } from "../src/connectors/duffel/duffel-connector";
import type { DuffelOffer, DuffelOrder } from "../src/connectors/duffel/duffel-shapes";

/** How long the airline-change journey waits for Duffel to make the change, reading every few seconds. */
const CHANGE_WAIT_MS = 60_000;
const CHANGE_READ_EVERY_MS = 3_000;

/** One journey: Duffel's route, what its test mode does there, and the check (it answers what was seen, or throws Unexpected). */
interface Journey {
  from: string;
  to: string;
  what: string;
  run(duffel: DuffelConnector, date: string): Promise<string>;
}

class Unexpected extends Error {}

/** The test traveller the script books (Duffel's test mode takes any well-formed one). */
export function traveller(passengerId: string) {
  return {
    id: passengerId,
    given_name: "Amelia",
    family_name: "Earhart",
    born_on: "1987-07-24",
    title: "ms" as const,
    gender: "f" as const,
    email: "amelia@example.com",
    phone_number: "+442080160509",
    identity_documents: [{ type: "passport" as const, unique_identifier: "553537117", issuing_country_code: "GB", expires_on: "2036-01-01" }],
  };
}

async function cheapestOffer(duffel: DuffelConnector, from: string, to: string, date: string): Promise<DuffelOffer> {
  const answer = await duffel.createOfferRequest(
    { slices: [{ origin: from, destination: to, departure_date: date }], passengers: [{ type: "adult" }], cabin_class: "economy", max_connections: 1 },
    { returnOffers: true, supplierTimeoutMs: 20_000 },
  );
  const [cheapest] = [...(answer.offers ?? [])].sort((a, b) => Number(a.total_amount) - Number(b.total_amount));
  if (!cheapest) throw new Unexpected("Duffel answered no offer");
  return cheapest;
}

function bookInstantly(duffel: DuffelConnector, offer: DuffelOffer): Promise<DuffelOrder> {
  return duffel.createOrder({ type: "instant", selected_offers: [offer.id], passengers: [traveller(offer.passengers[0]!.id)], payments: [{ type: "balance", amount: offer.total_amount, currency: offer.total_currency }] });
}

/** Duffel's refusal of `call` as `<status> <Duffel's code> (our <catalogue code>)`; Unexpected when it was not refused, or refused otherwise than `expected` (Duffel's code or status). */
async function refusal(call: Promise<unknown>, expected: string | number): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof DuffelApiError)) throw error;
    const seen = `${error.status} ${error.code} (our ${catalogueError(error).code})`;
    if (error.code !== expected && error.status !== expected) throw new Unexpected(`refused otherwise: ${seen}`);
    return seen;
  }
  throw new Unexpected(`Duffel did it; its test mode refuses it (${expected})`);
}

export const JOURNEYS: readonly Journey[] = [
  { from: "LGW", to: "LHR", what: "the offer is gone at booking", run: async (duffel, date) => refusal(bookInstantly(duffel, await cheapestOffer(duffel, "LGW", "LHR", date)), "offer_no_longer_available") },
  {
    from: "LHR",
    to: "STN",
    what: "the price rises on every read",
    run: async (duffel, date) => {
      const offer = await cheapestOffer(duffel, "LHR", "STN", date);
      const [first, second] = [await duffel.getOffer(offer.id), await duffel.getOffer(offer.id)];
      if (Number(second.total_amount) <= Number(first.total_amount)) throw new Unexpected(`the price did not rise: ${first.total_amount}, then ${second.total_amount}`);
      return `${first.total_amount}, then ${second.total_amount} ${second.total_currency}`;
    },
  },
  { from: "LHR", to: "LGW", what: "the airline is unknown (502)", run: async (duffel, date) => refusal(bookInstantly(duffel, await cheapestOffer(duffel, "LHR", "LGW", date)), "airline_unknown") },
  { from: "LGW", to: "STN", what: "the balance is short", run: async (duffel, date) => refusal(bookInstantly(duffel, await cheapestOffer(duffel, "LGW", "STN", date)), "insufficient_balance") },
  { from: "STN", to: "LHR", what: "the search times out (504)", run: (duffel, date) => refusal(cheapestOffer(duffel, "STN", "LHR", date), 504) },
  {
    from: "LHR",
    to: "LTN",
    what: "the airline changes the paid order",
    run: async (duffel, date) => {
      const order = await bookInstantly(duffel, await cheapestOffer(duffel, "LHR", "LTN", date));
      for (const deadline = Date.now() + CHANGE_WAIT_MS; ; await new Promise((resolve) => setTimeout(resolve, CHANGE_READ_EVERY_MS))) {
        const [change] = await duffel.listAirlineInitiatedChanges(order.id);
        if (change) return `${change.id} on ${order.id}: ${change.removed.length} slice(s) removed, ${change.added.length} added`;
        if (Date.now() > deadline) throw new Unexpected(`no airline-initiated change on ${order.id} after ${CHANGE_WAIT_MS / 1000} s`);
      }
    },
  },
  {
    from: "LTN",
    to: "SYD",
    what: "a refund goes to airline credits",
    run: async (duffel, date) => {
      const order = await bookInstantly(duffel, await cheapestOffer(duffel, "LTN", "SYD", date));
      const confirmed = await duffel.confirmCancellation((await duffel.quoteCancellation(order.id)).id);
      if (confirmed.refund_to !== "airline_credits") throw new Unexpected(`refunded to ${confirmed.refund_to}`);
      return `${confirmed.airline_credits?.length ?? 0} credit(s) of ${confirmed.refund_amount ?? "an unstated amount"} ${confirmed.refund_currency ?? ""}`.trimEnd();
    },
  },
];

/** Runs every journey on `date`, printing one line each (✓ what Duffel answered, ✗ what it did otherwise); true when all went as Duffel's test mode promises. */
export async function runJourneys(duffel: DuffelConnector, date: string, print: (line: string) => void): Promise<boolean> {
  let allWell = true;
  for (const journey of JOURNEYS) {
    const name = `${journey.from}→${journey.to} ${journey.what}`;
    try {
      print(`  ✓ ${name}: ${await journey.run(duffel, date)}`);
    } catch (error) {
      allWell = false;
      print(`  ✗ ${name}: ${error instanceof Unexpected ? error.message : `failed: ${(error as Error).message}`}`);
    }
  }
  return allWell;
}
