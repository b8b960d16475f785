import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant, type ApiResponse, type Endpoint, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { exitCode, killStillRunning, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { daysAhead } from "../helpers/offers";
import { expectJourneysSettled, OutageClient, type Answer, type Journey, type JourneyKind } from "../helpers/outage-journeys";
import { startPrimaryAndReplica, type PostgresPair } from "../helpers/postgres-servers";
import { subscribe, waitForOpenSubscriptions, wsClient, ORDER_EVENTS, type Subscription } from "../helpers/subscriptions";
import { freePort } from "../helpers/tcp-proxy";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * A primary failover under load. Two processes run on a PostgreSQL primary with a synchronous
 * streaming replica, both named in one multi-host DATABASE_URL (and DATABASE_LISTEN_URL), as
 * pg_auto_failover's `pg_autoctl show uri` writes it. Clients book, ticket and cancel through A
 * and search through B, the tenant's webhook goes to a receiver and a subscriber listens on B;
 * the primary crashes (`pg_ctl stop -m immediate`) and the suite promotes the replica, as the
 * failover manager would. Meanwhile every refusal is 503 with Retry-After, never a 500; both
 * processes serve again from the new primary without a restart; every order ends in one
 * state with its ledger; every event reached the webhook, none under two ids; the LISTEN
 * connections follow the new primary; and no line either process wrote holds the password.
 */

const CLIENTS = 3;
const KINDS: JourneyKind[] = ["ticket", "cancel_hold", "refund"];
/** How long the primary stays dead before the replica is promoted (a failover manager's detection time, shortened). */
const DEAD_MS = 2000;
/** Listener sessions hold an advisory lock of this class (src/events/pubsub.ts). */
const LISTENER_LOCK_CLASS = 0x41657267;

describe("a primary failover under load", { timeout: 300_000 }, () => {
  let pair: PostgresPair;
  let receiver: Receiver;
  let a: Running;
  let b: Running;
  let apiA: Endpoint & { ownerKey: string };
  let apiB: Endpoint & { ownerKey: string };
  let tenant: TenantFixture;
  let events: Subscription;
  const started: Running[] = [];
  const clients: OutageClient[] = [];
  const journeys: Journey[] = [];
  const searches: Answer[] = [];

  beforeAll(async () => {
    pair = await startPrimaryAndReplica({ synchronous: true });
    await pair.primary.query("CREATE DATABASE aerogate");
    receiver = await startReceiver();
    const ownerKey = generateSecret("owner");
    const env = {
      DATABASE_URL: pair.multiHostUrl("aerogate"),
      DATABASE_LISTEN_URL: pair.multiHostUrl("aerogate"),
      OWNER_API_KEY: ownerKey,
      LOG_LEVEL: "info",
      TICKETING_DELAY_MS: "300",
      JOB_POLL_MS: "100",
      JOB_LEASE_SECONDS: "3",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1,1,1,1",
    };
    a = startMain(env);
    started.push(a);
    await waitUntilHealthy(a);
    b = startMain(env);
    started.push(b);
    await waitUntilHealthy(b);
    apiA = { url: a.baseUrl, ownerKey };
    apiB = { url: b.baseUrl, ownerKey };
  });

  afterAll(async () => {
    await killStillRunning(started);
    await receiver?.close();
    await pair?.remove();
  });

  it("refuses with 503 and Retry-After while there is no primary, never 500, and serves from the promoted replica without a restart", async () => {
    tenant = await createTenant(apiA, { environment: "sandbox" });
    expect((await call(apiA, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: receiver.url, webhook_enabled: true } })).status).toBe(200);
    events = subscribe(wsClient(`${b.baseUrl.replace("http", "ws")}/graphql`, { "x-api-key": tenant.key }), ORDER_EVENTS);
    await waitForOpenSubscriptions(apiB, 1);

    let stopping = false;
    const loops = Array.from({ length: CLIENTS }, async (_, index) => {
      const client = new OutageClient(apiA, tenant.key);
      clients.push(client);
      try {
        for (let round = 0; !stopping; round++) journeys.push(await client.journey(KINDS[(index + round) % KINDS.length]!, 20 + index * 60 + round * 2));
      } finally {
        stopping = true;
      }
    });
    // Searches through B all along, each answer recorded.
    const searching = (async () => {
      for (let n = 0; !stopping; n++) {
        const body = { slices: [{ origin: "LON", destination: "NYC", departure_date: daysAhead(10 + (n % 30)) }], passengers: [{ type: "adult" }], cabin_class: "economy" };
        const answer = await call(apiB, "POST", "/v1/air/search", { key: tenant.key, body });
        searches.push({ at: Date.now(), route: "search", status: answer.status, code: answer.body?.errors?.[0]?.code, retryAfter: answer.headers.get("retry-after") });
        if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    let promotedAt = 0;
    try {
      await eventually(async () => (journeys.length >= CLIENTS ? true : undefined), () => `${journeys.length} journeys done before the failover`, 60_000, 50);
      await pair.primary.crash();
      const crashedAt = Date.now();
      for (const api of [apiA, apiB]) {
        await eventually(async () => ((await call(api, "GET", "/readyz")).status === 503 ? true : undefined), () => `${api.url} still ready without a primary`);
      }
      await eventually(async () => (Date.now() - crashedAt >= DEAD_MS ? true : undefined), () => "the primary has not been dead long", DEAD_MS + 5000, 50);
      await pair.replica.promote();
      promotedAt = Date.now();
      for (const api of [apiA, apiB]) {
        await eventually(async () => ((await call(api, "GET", "/v1/wallet", { key: tenant.key })).status === 200 ? true : undefined), () => `${api.url} still refuses after the promotion`, 10_000, 10);
      }
      const recoveredInMs = Date.now() - promotedAt;
      expect(recoveredInMs, "both processes answered from the new primary within 2 s of its promotion").toBeLessThanOrEqual(2000);
      const doneAtPromotion = journeys.length;
      await eventually(async () => (journeys.length >= doneAtPromotion + CLIENTS ? true : undefined), () => `${journeys.length - doneAtPromotion} journeys done on the new primary`, 60_000, 50);
    } finally {
      stopping = true;
      await Promise.allSettled([...loops, searching]);
    }
    await Promise.all(loops);

    const answers = [...clients.flatMap((client) => client.answers), ...searches];
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503), "no 5xx but 503").toEqual([]);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length, "the clients met the failover").toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.code).toBe("service_unavailable");
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
    expect(searches.filter((answer) => answer.at > promotedAt && answer.status === 200).length, "B searched on the new primary").toBeGreaterThan(0);
    // The same processes, never restarted, moved their connections.
    for (const running of [a, b]) {
      expect(running.child.exitCode).toBeNull();
      expect(running.stdout()).toContain("database primary moved; connections follow it");
    }
  });

  it("left every order in one state, the one its client asked for, and moved the money exactly once", async () => {
    await expectJourneysSettled(apiA, tenant.key, journeys);
  });

  it("sent every event to the webhook, none lost and none under a second id", async () => {
    const committed: Array<{ id: string; event: string; data: { id: string } }> = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await call(apiA, "GET", `/v1/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: tenant.key });
      expect(page.status).toBe(200);
      committed.push(...page.body.data.items);
      cursor = page.body.data.pagination.nextCursor;
    } while (cursor);
    expect(committed.length).toBeGreaterThan(journeys.length);
    const arrivedIds = () => new Set(receiver.received.map((hook) => hook.headers["webhook-id"] as string));
    await eventually(
      async () => (committed.every((event) => arrivedIds().has(event.id)) ? true : undefined),
      () => `events never delivered: ${committed.filter((event) => !arrivedIds().has(event.id)).map((event) => `${event.event} ${event.data.id}`).join(", ")}`,
      30_000,
      100,
    );
    // An event sent again (a delivery whose outcome the failover cut off) carries the same id.
    const idsPerEvent = new Map<string, Set<string>>();
    for (const hook of receiver.received) {
      const what = `${hook.json.event} ${hook.json.data.id}`;
      idsPerEvent.set(what, (idsPerEvent.get(what) ?? new Set()).add(hook.headers["webhook-id"] as string));
    }
    expect([...idsPerEvent].filter(([, ids]) => ids.size > 1)).toEqual([]);
    expect(arrivedIds().size).toBe(committed.length);
  });

  it("followed the new primary with both LISTEN connections: a change through A reaches B's caches and subscribers at once", async () => {
    const [locks] = await pair.replica.query<{ listeners: number }>(
      `SELECT count(*)::int AS listeners FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LISTENER_LOCK_CLASS} AND objsubid = 2 AND granted`,
    );
    expect(locks?.listeners).toBe(2);
    // B caches a fresh key; A revokes it; B refuses it at once.
    const fresh = await createTenant(apiA, { environment: "sandbox" });
    expect((await call(apiB, "GET", "/v1/tenant", { key: fresh.key })).status).toBe(200);
    expect((await call(apiA, "DELETE", `/v1/tenants/${fresh.tenantId}/keys/${fresh.keyId}`, { key: apiA.ownerKey })).status).toBe(200);
    expect((await call(apiB, "GET", "/v1/tenant", { key: fresh.key })).status).toBe(401);
    // B's subscriber was told every event, those committed around the failover included.
    const told = () => new Set(events.results.map((result) => result.data?.orderEvents?.id));
    const committed = [...new Set(receiver.received.map((hook) => hook.headers["webhook-id"] as string))];
    await eventually(
      async () => (committed.every((id) => told().has(id)) ? true : undefined),
      () => `events never told to B's subscriber: ${committed.filter((id) => !told().has(id)).length} of ${committed.length}`,
    );
    expect(events.closeCode).toBeNull();
  });

  it("never wrote the database password, in any log line or message", async () => {
    for (const running of [a, b]) {
      expect(running.stdout() + running.stderr()).not.toContain(pair.password);
      expect(running.stdout()).toContain("127.0.0.1:");
    }
    // A multi-host URL whose hosts are all down: the start waits, then fails naming the hosts, never the password.
    const down = `postgresql://aerogate:${pair.password}@127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}/aerogate?target_session_attrs=read-write`;
    const refused = startMain({ DATABASE_URL: down, OWNER_API_KEY: generateSecret("owner"), DATABASE_WAIT_SECONDS: "1" });
    started.push(refused);
    expect(await exitCode(refused)).toBe(1);
    expect(refused.stderr()).toMatch(/could not be reached within 1 s .*: 127\.0\.0\.1:\d+: connection refused/);
    // One that cannot be read at all.
    const unreadable = startMain({ DATABASE_URL: `postgresql://aerogate:${pair.password}@127.0.0.1:5432,,x/aerogate`, OWNER_API_KEY: generateSecret("owner") });
    started.push(unreadable);
    expect(await exitCode(unreadable)).toBe(1);
    for (const running of [refused, unreadable]) expect(running.stdout() + running.stderr()).not.toContain(pair.password);
  });
});
