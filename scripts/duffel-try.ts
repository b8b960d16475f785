// `npx tsx scripts/duffel-try.ts --tenant <ten_…> --from LHR --to JFK --date YYYY-MM-DD [--book]`:
// an operator's first try of a tenant's Duffel connection (docs/duffel.md#trying-a-search-and-a-booking).
// `--tenant <ten_…> --date YYYY-MM-DD --journeys` runs Duffel's test-mode journeys instead
// (scripts/duffel-journeys.ts), exiting 1 when one does not go as Duffel's test mode promises.
// Searches Duffel with the tenant's token (from the server's database, decrypted with
// SUPPLIER_SECRETS_KEY) and prints each offer in Duffel's currency and the tenant's; with --book,
// holds the cheapest offer that can be held (or books the cheapest instantly, paying Duffel's
// total from the Duffel balance, unlimited in test mode) for one test traveller.
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/database";
import { onAccount } from "../src/connectors/duffel/duffel-accounts";
import { offerRequestBody, pricedOffer } from "../src/connectors/duffel/duffel-offers";
import { LocalPubSub } from "../src/events/pubsub";
import { createLogger } from "../src/logger";
import { createServices } from "../src/services";
import { duffelAccounts } from "../src/connectors/duffel/connected-accounts";
import { DuffelBookings } from "../src/connectors/duffel/duffel-bookings";
import { runJourneys, traveller } from "./duffel-journeys";

const { values } = parseArgs({
  options: { tenant: { type: "string" }, from: { type: "string" }, to: { type: "string" }, date: { type: "string" }, book: { type: "boolean", default: false }, journeys: { type: "boolean", default: false } },
});
if (!values.tenant || !values.date || (!values.journeys && (!values.from || !values.to))) {
  console.error("usage: npx tsx scripts/duffel-try.ts --tenant <ten_…> --from LHR --to JFK --date YYYY-MM-DD [--book]\n       npx tsx scripts/duffel-try.ts --tenant <ten_…> --date YYYY-MM-DD --journeys");
  process.exit(2);
}
const config = loadConfig();
const db = await openDatabase(config.DATABASE_URL);
const services = await createServices(config, db, new LocalPubSub(), createLogger("warn"));
try {
  const tenant = await db.prisma.tenant.findUniqueOrThrow({ where: { id: values.tenant } });
  const accounts = duffelAccounts(services.supplierAccounts, { baseUrl: config.DUFFEL_API_URL, timeoutMs: config.DUFFEL_TIMEOUT_MS });
  const account = await accounts.forSearch(tenant.id);
  if (!account) throw new Error("the tenant has no Duffel connection (or SUPPLIER_SECRETS_KEY is unset): POST /v1/supplier_connections first");
  if (values.journeys) {
    // A sandbox tenant's connection holds a duffel_test_ token (a live tenant's a live one).
    if (tenant.environment !== "sandbox") throw new Error("the journeys are Duffel's test mode's: run them with a sandbox tenant connected with a duffel_test_ token");
    console.log(`Duffel's test-mode journeys on ${values.date}:`);
    if (!(await runJourneys(account.connector, values.date, (line) => console.log(line)))) process.exitCode = 1;
  } else {
    const airport = (code: string) => {
      const found = services.airports.getByIata(code);
      if (!found) throw new Error(`unknown airport ${code}`);
      return found;
    };
    const search = {
      slices: [{ origins: [airport(values.from!)], destinations: [airport(values.to!)], departureDate: values.date }],
      passengers: [{ id: "p1", type: "adult" as const }],
      cabinClass: "economy" as const,
      maxConnections: 1,
      tenantId: tenant.id,
      environment: tenant.environment,
    };
    const answer = await onAccount(accounts, account, (connector) => connector.createOfferRequest(offerRequestBody(search), { returnOffers: true, supplierTimeoutMs: 20_000 }));
    const offers = (answer.offers ?? []).map((offer) => pricedOffer(offer, tenant.defaultCurrency)).sort((a, b) => a.total.amountMinor - b.total.amountMinor);
    console.log(`offer request ${answer.id}: ${offers.length} offers`);
    for (const priced of offers.slice(0, 10)) {
      const rate = priced.total.conversion ? ` at ${priced.total.conversion.rate} ${priced.total.conversion.to}/${priced.total.conversion.from}` : "";
      console.log(`  ${priced.id}  ${priced.offer.owner.name}  ${priced.duffelTotal.amount} ${priced.duffelTotal.currency} = ${priced.total.amountMinor} ${priced.total.currency} minor units${rate}${priced.requiresInstantPayment ? "" : "  (can be held)"}`);
    }
    const chosen = offers.find((priced) => !priced.requiresInstantPayment) ?? offers[0];
    if (values.book && chosen) {
      const hold = !chosen.requiresInstantPayment;
      const booking = await new DuffelBookings(db, accounts).book(
        tenant.id,
        {
          idempotencyKey: `duffel-try-${chosen.id}`,
          offerId: chosen.id,
          type: hold ? "hold" : "instant",
          passengers: [traveller(chosen.offer.passengers[0]!.id)],
          ...(!hold && { payment: chosen.duffelTotal }),
        },
      );
      console.log(`booked: ${JSON.stringify(booking)}`);
    }
  }
} finally {
  await db.close();
}
