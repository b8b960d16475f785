import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant, graphql, graphqlPipelineCounts, type Endpoint, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { killStillRunning, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { inFlight } from "../helpers/crash-harness";
import { createOrderA, newKey, searchForBooking } from "../helpers/orders";
import { resumePaused, waitForPause } from "../helpers/seat-accounting";
import { expectJourneysSettled, OutageClient, type Journey, type JourneyKind } from "../helpers/outage-journeys";
import { subscribe, waitForOpenSubscriptions, wsClient, ORDER_EVENTS, type Subscription } from "../helpers/subscriptions";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * A PostgreSQL outage under load. The real entry point reaches its database through a TCP proxy
 * this suite controls (the shared PostgreSQL server keeps serving everyone else); four clients
 * book, ticket and cancel, retrying refusals with the same Idempotency-Key, while the proxy is
 * cut for a few seconds and restored. Every refusal is 503 with Retry-After, none a 500, on
 * REST, GraphQL (Apollo and prepared) and WebSocket; the process answers again within a second
 * of the database's return; every order ends in one state with exactly its ledger entries;
 * subscriptions keep their sockets and get every event; and the log tells the outage in a few
 * lines without a stack.
 */

const CLIENTS = 4;
const KINDS: JourneyKind[] = ["ticket", "cancel_hold", "refund"];
const OUTAGE_MS = 3000;

describe("a PostgreSQL outage under load", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let running: Running;
  let api: Endpoint & { ownerKey: string };
  let tenant: TenantFixture;
  let events: Subscription;
  const started: Running[] = [];
  const clients: OutageClient[] = [];
  const journeys: Journey[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.provider !== "postgresql") throw new Error("this suite needs TEST_DATABASE_URL (npm run test:pg)");
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const ownerKey = generateSecret("owner");
    running = startMain({
      DATABASE_URL: proxy.via(database.url),
      OWNER_API_KEY: ownerKey,
      LOG_LEVEL: "info",
      TICKETING_DELAY_MS: "300",
      JOB_POLL_MS: "100",
      JOB_LEASE_SECONDS: "3",
    });
    started.push(running);
    await waitUntilHealthy(running);
    api = { url: running.baseUrl, ownerKey };
  });

  afterAll(async () => {
    await killStillRunning(started);
    await proxy?.close();
    await database?.drop();
  });

  it("refuses with 503 and Retry-After while the database is away, never 500, and answers within a second of its return", async () => {
    tenant = await createTenant(api, { environment: "sandbox" });
    // A key never used before the outage: no process has it cached, so its connection needs the database.
    const unseen = await createTenant(api, { environment: "sandbox" });
    const socket = wsClient(`${running.baseUrl.replace("http", "ws")}/graphql`, { "x-api-key": tenant.key });
    events = subscribe(socket, ORDER_EVENTS);
    await waitForOpenSubscriptions(api, 1);
    const walletQuery = "query OutageWallet { wallet { balance currency } }";
    for (let repeat = 0; repeat < 2; repeat++) expect((await graphql(api, walletQuery, {}, { key: tenant.key })).status).toBe(200);
    const preparedBefore = (await graphqlPipelineCounts(api)).prepared;

    // Clients book, ticket and cancel until told to stop, each on dates of its own.
    let stopping = false;
    const loops = Array.from({ length: CLIENTS }, async (_, index) => {
      const client = new OutageClient(api, tenant.key);
      clients.push(client);
      try {
        for (let round = 0; !stopping; round++) journeys.push(await client.journey(KINDS[(index + round) % KINDS.length]!, 20 + index * 60 + round * 2));
      } finally {
        // One client's failure stops the others: the suite reports it, not their aftermath.
        stopping = true;
      }
    });
    try {
      await underOutage();
    } finally {
      stopping = true;
      await proxy.restore();
      await Promise.allSettled(loops);
    }
    await Promise.all(loops);

    const answers = clients.flatMap((client) => client.answers);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503), "no 5xx but 503").toEqual([]);
    expect(refused.length, "the clients met the outage").toBeGreaterThan(10);
    for (const answer of refused) {
      expect(answer.code).toBe("service_unavailable");
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }

    /** The outage, while the clients go on: what each transport answers, and the return. */
    async function underOutage(): Promise<void> {
      await eventually(async () => (journeys.length >= CLIENTS ? true : undefined), () => `${journeys.length} journeys done before the outage`, 60_000, 50);

      await proxy.cut();
      const cutAt = Date.now();
      const readiness = await eventually(
        async () => {
          const response = await call(api, "GET", "/readyz");
          return response.status === 503 ? response : undefined;
        },
        () => "/readyz still ready",
      );
      expect(readiness.body).toMatchObject({ status: "not_ready", database: "unreachable", name: expect.stringContaining(`database ${new URL(database.url).pathname.slice(1)}`) });
      expect(readiness.body.reason).toEqual(expect.any(String));
      expect((await call(api, "GET", "/healthz")).status).toBe(200);

      // REST: the catalogue's 503, with Retry-After.
      const rest = await call(api, "GET", "/v1/wallet", { key: tenant.key });
      expect(rest.status).toBe(503);
      expect(rest.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(rest.body).toMatchObject({ errors: [{ code: "service_unavailable" }], statusCode: 503, errorCode: "SERVICE_UNAVAILABLE", fault: "server", retryable: true });

      // GraphQL: the prepared repeat, and a text Apollo answers: HTTP 503, Retry-After, extensions.code.
      for (const query of [walletQuery, "query OutageOrders { orders(first: 1) { totalCount } }"]) {
        const answer = await graphql(api, query, {}, { key: tenant.key });
        expect(answer.status, query).toBe(503);
        expect(answer.headers.get("retry-after"), query).toMatch(/^\d+$/);
        expect(answer.body.errors?.[0]?.extensions, query).toMatchObject({ code: "service_unavailable", statusCode: 503, retryable: true, retryAfterSeconds: expect.any(Number) });
      }
      expect((await graphqlPipelineCounts(api)).prepared).toBeGreaterThan(preparedBefore);

      // WebSocket: an operation on the open socket gets the code; a new connection is told to try again later.
      const refusedOperation = await new Promise<any>((resolve) => {
        socket.subscribe({ query: walletQuery }, { next: resolve, error: resolve, complete: () => undefined });
      });
      expect(JSON.stringify(refusedOperation)).toContain('"code":"service_unavailable"');
      const latecomer = subscribe(wsClient(`${running.baseUrl.replace("http", "ws")}/graphql`, { "x-api-key": unseen.key }), ORDER_EVENTS);
      await latecomer.waitForEnd();
      expect(latecomer.closeCode).toBe(1013);

      // The outage lasts a few seconds, the clients retrying all along.
      await eventually(async () => (Date.now() - cutAt >= OUTAGE_MS ? true : undefined), () => "the outage is still short", OUTAGE_MS + 5000, 100);
      const restoredAt = Date.now();
      await proxy.restore();
      await eventually(
        async () => ((await call(api, "GET", "/v1/wallet", { key: tenant.key })).status === 200 ? true : undefined),
        () => "the wallet is still refused after the database came back",
        10_000,
        10,
      );
      const recoveredInMs = Date.now() - restoredAt;
      expect(recoveredInMs, "answered again within a second of the database's return").toBeLessThanOrEqual(1000);
      expect((await call(api, "GET", "/readyz")).status).toBe(200);

      // Some more of the load on the database that came back, then the clients finish their journeys.
      const doneAtReturn = journeys.length;
      await eventually(async () => (journeys.length >= doneAtReturn + CLIENTS ? true : undefined), () => `${journeys.length - doneAtReturn} journeys done since the return`, 60_000, 50);
    }
  });

  it("left every order in one state, the one its client asked for, and moved the money exactly once", async () => {
    await expectJourneysSettled(api, tenant.key, journeys);
  });

  it("kept the subscription's socket open and told it every event, those committed around the outage included", async () => {
    expect(events.closeCode).toBeNull();
    expect(events.completed).toBe(false);
    const orders = (await call(api, "GET", "/v1/air/orders?limit=100", { key: tenant.key })).body.data.items as Array<{ id: string }>;
    const committed = new Set<string>();
    for (const { id } of orders) {
      const history = await call(api, "GET", `/v1/air/orders/${id}/events?limit=100`, { key: tenant.key });
      for (const event of history.body.data.items) committed.add(event.id);
    }
    const told = () => new Set(events.results.map((result) => result.data?.orderEvents?.id));
    await eventually(
      async () => ([...committed].every((id) => told().has(id)) ? true : undefined),
      () => `events never told: ${[...committed].filter((id) => !told().has(id)).join(", ")}`,
    );
    expect(events.results.filter((result) => result.errors)).toEqual([]);
  });

  it("logged the outage once, a summary at most once a second, and its end, with no stack", () => {
    const lines = running
      .stdout()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string; time: number });
    const messages = lines.map((line) => line.msg);
    expect(messages.filter((msg) => msg === "database unreachable")).toHaveLength(1);
    expect(messages.filter((msg) => msg === "database reachable again")).toHaveLength(1);
    const summaries = lines.filter((line) => /^\d+ requests? refused in the last second$/.test(line.msg));
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (let index = 1; index < summaries.length; index++) expect(summaries[index]!.time - summaries[index - 1]!.time).toBeGreaterThanOrEqual(900);
    expect(running.stdout()).not.toContain('"stack"');
    // Nothing else at error level, and no failure logged with its error: the outage is told above.
    const errors = lines.filter((line) => line.level >= 50 && line.msg !== "database unreachable");
    expect(errors).toEqual([]);
    const loud = lines.filter((line) => "err" in line);
    expect(loud).toEqual([]);
  });

  it("a booking cut off between claiming its key and committing is made by its retry as soon as the database is back, once", async () => {
    const paused = startMain({ DATABASE_URL: proxy.via(database.url), OWNER_API_KEY: api.ownerKey, LOG_LEVEL: "warn", AEROGATE_TEST_PAUSE_AT: "after_supplier_hold" });
    started.push(paused);
    await waitUntilHealthy(paused);
    const endpoint = { url: paused.baseUrl };
    const [offer] = await searchForBooking(endpoint, tenant.key);
    const idempotencyKey = newKey("cut-off");

    // Its key claimed and the airline's seats held, the database goes away before the order's commit.
    const first = inFlight(createOrderA(endpoint, tenant.key, offer, { idempotencyKey }));
    await waitForPause(paused, "after_supplier_hold");
    await proxy.cut();
    resumePaused(paused);
    expect(await first).toMatchObject({ status: 503 });
    await proxy.restore();
    await eventually(async () => ((await call(endpoint, "GET", "/readyz")).status === 200 ? true : undefined), () => "the process has not seen the database back");

    // The retry runs the booking again (it stops at the same point) instead of waiting out the claim with 409s.
    const retry = createOrderA(endpoint, tenant.key, offer, { idempotencyKey });
    const reached = await Promise.race([retry.then((answer) => ({ answeredFirst: answer.status, body: answer.body })), waitForPause(paused, "after_supplier_hold", 2).then(() => "ran again")]);
    expect(reached).toBe("ran again");
    resumePaused(paused);
    const booked = await retry;
    expect(booked.status, JSON.stringify(booked.body).slice(0, 300)).toBe(201);
    const replay = await createOrderA(endpoint, tenant.key, offer, { idempotencyKey });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.id).toBe(booked.body.data.id);
    const listed = (await call(endpoint, "GET", "/v1/air/orders?limit=100", { key: tenant.key })).body.data.items as Array<{ offer_id: string }>;
    expect(listed.filter((order) => order.offer_id === offer.id)).toHaveLength(1);
  });
});
