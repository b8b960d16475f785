import { afterAll, beforeAll, expect } from "vitest";
import { call, createTenant, type Endpoint, type TenantFixture } from "./client";
import { connectDuffel, fakeToken, secretsKey } from "./duffel";
import { startDuffelFake, type DuffelFake, type FakeOrder } from "./duffel-fake";
import { clock } from "../../src/clock";
import { eventually } from "./eventually";
import { daysAhead } from "./offers";
import { allTransactions, bookOffer, signedMinor, ticketOrder, waitForStatus, walletBalance } from "./orders";
import { startTestServer, type TestServer } from "./test-server";
import { credit } from "./wallet";

/** A test server whose Duffel is the fake, ticketing at once. */
export function startDuffelServer(fake: DuffelFake, env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env: { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_API_URL: fake.url, DUFFEL_TIMEOUT_MS: "10000", TICKETING_DELAY_MS: "0", ...env } });
}

/** The three suppliers a Duffel tenant searches, Duffel last. */
export const WITH_DUFFEL = ["simulated", "simulated_lcc", "duffel"];

/** A sandbox tenant connected to Duffel (the fake) with a fresh token, searching all three suppliers; returns it and its token. */
export async function duffelTenant(server: Pick<TestServer, "url" | "ownerKey">, fake: DuffelFake): Promise<TenantFixture & { token: string }> {
  const tenant = await createTenant(server);
  const token = fakeToken(fake);
  await connectDuffel(server, tenant, token);
  const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: WITH_DUFFEL } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  return { ...tenant, token };
}

/**
 * The owner's platform Duffel account (a fresh token of the fake) and a tenant searching Duffel
 * too that is granted it: its Duffel orders are the wallet's to settle. Answers the tenant and the
 * platform's token.
 */
export async function platformDuffelTenant(server: Pick<TestServer, "url" | "ownerKey">, fake: DuffelFake): Promise<{ tenant: TenantFixture; platformToken: string }> {
  const platformToken = fakeToken(fake);
  const created = await call(server, "POST", "/v1/platform_accounts", { key: server.ownerKey, body: { supplier: "duffel", access_token: platformToken } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const tenant = await createTenant(server);
  expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
  expect((await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey, body: { platform_accounts: ["duffel"] } })).status).toBe(200);
  return { tenant, platformToken };
}

/** What most Duffel suites start with: the fake, a server pointed at it, and a tenant connected to it. */
export async function openDuffelSuite(env: Record<string, string> = {}): Promise<{ fake: DuffelFake; server: TestServer; tenant: TenantFixture & { token: string } }> {
  const fake = await startDuffelFake();
  const server = await startDuffelServer(fake, env);
  return { fake, server, tenant: await duffelTenant(server, fake) };
}

/**
 * A suite's Duffel side, set up in its hooks: the fake, a server on it, a tenant with its own
 * Duffel connection (`own`: its orders `supplier`-settled) and one granted the owner's platform
 * account (`platform`: `wallet`-settled, its wallet credited `platformCredit` USD when given).
 * Read the fields inside tests.
 */
export function ownAndPlatformSuite(platformCredit?: string) {
  const suite = { fake: undefined as unknown as DuffelFake, server: undefined as unknown as TestServer, own: undefined as unknown as TenantFixture, platform: undefined as unknown as TenantFixture };
  beforeAll(async () => {
    suite.fake = await startDuffelFake();
    suite.server = await startDuffelServer(suite.fake);
    suite.own = await duffelTenant(suite.server, suite.fake);
    ({ tenant: suite.platform } = await platformDuffelTenant(suite.server, suite.fake));
    if (platformCredit) await credit(suite.server, suite.platform.tenantId, platformCredit);
  });
  afterAll(() => closeDuffelSuite(suite));
  return suite;
}

/** Closes what openDuffelSuite started (either part may be missing when its start failed). */
export async function closeDuffelSuite(suite: { server?: TestServer; fake?: DuffelFake }): Promise<void> {
  await suite.server?.close();
  await suite.fake?.close();
}

let searchDay = 30;

/** A Variant A search London → Barcelona, one adult, on a date of its own (so simulated flights are not shared between tests), as answered. */
export async function searchLondonBarcelona(server: Endpoint, key: string, extra: Record<string, unknown> = {}) {
  searchDay += 1;
  return call(server, "POST", "/v1/air/search", {
    key,
    body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(searchDay) }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy", ...extra },
  });
}

/**
 * A Duffel offer of a fresh search, chosen by the fake's airline (`BA`: instant payment only; `VS`: holdable,
 * not refundable; `AA`: holdable, refundable for a penalty).
 */
export async function duffelOffer(server: Endpoint, key: string, owner: "BA" | "VS" | "AA"): Promise<any> {
  const search = await searchLondonBarcelona(server, key);
  expect(search.status, JSON.stringify(search.body).slice(0, 500)).toBe(200);
  const offer = search.body.data.offers.find((candidate: any) => candidate.supplier.id === "duffel" && candidate.owner.iata_code === owner);
  expect(offer, `a Duffel offer of ${owner}`).toBeDefined();
  return offer;
}

/** A ticketed order of a fresh holdable Duffel offer (`VS`: booked as a Duffel hold, paid at ticketing), and the fake's order for it. */
export async function ticketedDuffelOrder(server: Endpoint, key: string, fake: DuffelFake): Promise<{ order: any; atDuffel: FakeOrder }> {
  const booked = await bookOffer(server, key, await duffelOffer(server, key, "VS"));
  expect((await ticketOrder(server, key, booked.id)).status).toBe(200);
  const order = (await waitForStatus(server, key, booked.id, ["TICKETED"], 30_000)).body.data;
  const [atDuffel, ...more] = duffelOrdersOf(fake, order.id);
  expect(more).toEqual([]);
  return { order, atDuffel: atDuffel! };
}

/** The fake's orders carrying our order id. */
export function duffelOrdersOf(fake: DuffelFake, orderId: string) {
  return [...fake.orders.values()].filter((order) => order.metadata.aerogate_order_id === orderId);
}

/** The wallet's balance equals its ledger's sum, and the order's entries are exactly `types` (each once); returns the balance in minor units. */
export async function expectLedgerOf(server: Endpoint, key: string, orderId: string, types: string[]): Promise<number> {
  const entries = await allTransactions(server, key);
  const wallet = await walletBalance(server, key);
  expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(wallet.minor);
  expect(entries.filter((entry) => entry.order_id === orderId).map((entry) => entry.type).sort()).toEqual([...types].sort());
  return wallet.minor;
}

/** The order's ticket job (or `kind` job) once it waits for a later read of Duffel (due after now, unleased, and after `after` when given). */
export function waitingTicketJob(server: TestServer, orderId: string, after?: Date, kind: "ticket" | "confirm_booking" = "ticket") {
  return eventually(
    async () => {
      const job = await server.db.prisma.orderJob.findFirst({ where: { orderId, kind } });
      return job && job.runAt.getTime() > Math.max(clock.nowMs(), after?.getTime() ?? 0) && job.lockedUntil === null ? job : undefined;
    },
    () => `the ${kind} job of ${orderId} does not wait for a later read`,
    30_000,
  );
}
