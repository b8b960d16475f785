import { getNamedType, isNonNullType, type GraphQLField, type GraphQLInputType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret, hashSecret } from "../../src/tenancy/api-key-secret";
import { operations, type Operation } from "../../src/context/operations";
import { openDatabase } from "../../src/db/database";
import { Prisma } from "../../src/generated/prisma-sqlite/client";
import { newId, type IdPrefix } from "../../src/ids";
import { call, createTenant, graphql, type Endpoint, type TenantFixture } from "../helpers/client";
import { databaseState } from "../helpers/database-state";
import { expectCatalogueError } from "../helpers/error-shape";
import { eventually } from "../helpers/eventually";
import { exitCode, killStillRunning, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { createOrderA, newKey } from "../helpers/orders";
import { encodedSpellings, fillPath, idParams, isOwnerRoute, restRoutes, routeName } from "../helpers/route-table";
import { argIdKind, isIdArgument, minimalValue, operationFor, pathIdKind, servedSchema, type IdKind } from "../helpers/schema-operations";
import { ORDER_STATUS_CHANGED, subscribe, wsClient } from "../helpers/subscriptions";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { tenantWithRecords, type TenantRecords } from "../helpers/tenant-records";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * Logs and stored rows, on the real entry point (`src/main.ts` as a child process, LOG_LEVEL=info,
 * its stdout and stderr read as text): a full flow with the owner key and tenant keys (tenants,
 * keys, search, orders, ticketing, cancelation, webhook URL, secret rotation, deliveries to a
 * local receiver, GraphQL over HTTP and WebSocket, refused keys) leaves no key and no webhook
 * secret in the logs, and the database holds keys only as SHA-256 hashes. The access log carries
 * each field once per line. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

/** Every raw secret of the flow, and the output of the process that served it. */
interface Flow {
  ownerKey: string;
  /** Tenant keys the flow issued, a revoked one included. */
  issuedKeys: string[];
  /** A well-formed key the server never issued, refused by it. */
  unknownKey: string;
  webhookSecrets: string[];
  log: string;
  databaseUrl: string;
}

describe("secrets in logs and in the database", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const started: Running[] = [];
  const flow: Flow = { ownerKey: "", issuedKeys: [], unknownKey: "", webhookSecrets: [], log: "", databaseUrl: "" };

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver();
    const ownerKey = generateSecret("owner");
    const running = startMain({ DATABASE_URL: database.url, OWNER_API_KEY: ownerKey, LOG_LEVEL: "info", TICKETING_DELAY_MS: "50", WEBHOOK_RETRY_SCHEDULE: "0", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" });
    started.push(running);
    await waitUntilHealthy(running);
    const api: Endpoint & { ownerKey: string } = { url: running.baseUrl, ownerKey };
    // Probes, as a load balancer sends them (waitUntilHealthy has sent /healthz already).
    expect((await fetch(`${running.baseUrl}/readyz`)).status).toBe(200);

    // Two tenants through every step, their webhooks to the receiver.
    const tenants: TenantRecords[] = [await tenantWithRecords(api, receiver.url), await tenantWithRecords(api, receiver.url)];
    const [tenant] = tenants as [TenantRecords, TenantRecords];
    const rotated = await call(api, "POST", "/v1/tenant/webhook_secret/rotate", { key: tenant.key, keyHeader: "x-api-key" });
    expect(rotated.status).toBe(200);
    const secondKey = await call(api, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: ownerKey, keyHeader: "x-api-key", body: { label: "second" } });
    expect(secondKey.status).toBe(201);
    const revoked = await call(api, "DELETE", `/v1/tenants/${tenant.tenantId}/keys/${secondKey.body.data.keyId}`, { key: ownerKey });
    expect(revoked.status).toBe(200);
    // Refused keys: a revoked one, an unknown one, the owner's on a tenant path without Service-Tenant.
    expect((await call(api, "GET", "/v1/wallet", { key: secondKey.body.data.apiKey })).status).toBe(401);
    const unknownKey = generateSecret("sandbox");
    expect((await call(api, "GET", "/v1/wallet", { key: unknownKey, keyHeader: "x-api-key" })).status).toBe(401);
    expect((await call(api, "GET", "/v1/wallet", { key: ownerKey })).status).toBe(400);
    expect((await call(api, "GET", "/v1/wallet", { key: ownerKey, headers: { "service-tenant": tenant.tenantId } })).status).toBe(200);
    const viewer = await graphql(api, "{ viewer { __typename } }", {}, { key: tenant.key });
    expect(viewer.body.errors).toBeUndefined();
    // A subscription authenticated in connection_init, and one refused there.
    const ws = wsClient(running.baseUrl.replace("http", "ws") + "/graphql", { authorization: `Bearer ${tenant.key}` });
    const watched = subscribe(ws, ORDER_STATUS_CHANGED, { orderId: tenant.orderIds.ticketed });
    await watched.waitForResults(1);
    await ws.dispose();
    const refusedWs = wsClient(running.baseUrl.replace("http", "ws") + "/graphql", { "x-api-key": unknownKey });
    await subscribe(refusedWs, ORDER_STATUS_CHANGED, { orderId: tenant.orderIds.ticketed }).waitForEnd();
    await refusedWs.dispose();
    // Deliveries signed with the rotated secret reach the receiver too.
    // Counted before asking: the redelivery may arrive before the answer to the request does.
    const receivedBefore = receiver.received.length;
    const redelivered = await call(api, "POST", `/v1/webhooks/deliveries/${tenant.deliveryIds[0]}/redeliver`, { key: tenant.key });
    expect(redelivered.status).toBe(200);
    const { order_id: orderId, event } = redelivered.body.data;
    await eventually(
      async () => receiver.received.slice(receivedBefore).find((hook) => hook.json?.data?.id === orderId && hook.json?.event === event),
      () => `the redelivered ${event} of ${orderId} was not received`,
    );

    running.child.kill("SIGTERM");
    expect(await exitCode(running)).toBe(0);
    flow.ownerKey = ownerKey;
    flow.issuedKeys = [...tenants.map((records) => records.key), secondKey.body.data.apiKey];
    flow.unknownKey = unknownKey;
    flow.webhookSecrets = [...tenants.map((records) => records.webhookSecret!), rotated.body.data.webhook_secret];
    flow.log = running.stdout() + running.stderr();
    flow.databaseUrl = database.url;
  }, 180_000);

  afterAll(async () => {
    await killStillRunning(started);
    await receiver?.close();
    await database?.drop();
  });

  it("the flow produced a log: an access-log line per request", () => {
    expect(flow.webhookSecrets.every((secret) => /^whsec_/.test(secret))).toBe(true);
    expect(flow.log.split("\n").filter((line) => line.includes('"msg":"request completed"')).length).toBeGreaterThan(20);
  });

  it("health probes are logged at debug, so an info log holds none of them", () => {
    const probeLines = flow.log.split("\n").filter((line) => /"route":"\/(healthz|readyz)"/.test(line));
    expect(probeLines).toEqual([]);
  });

  it("no API key, owner key or webhook secret appears anywhere in the log", () => {
    for (const secret of [flow.ownerKey, ...flow.issuedKeys, flow.unknownKey, ...flow.webhookSecrets]) expect(flow.log.includes(secret), `${secret.slice(0, 12)}… in the log`).toBe(false);
    // Nor any part long enough to matter: no key or secret prefix followed by its random part.
    expect(flow.log).not.toMatch(/sk_(owner|test|live)_[0-9A-Za-z]{8}/);
    expect(flow.log).not.toMatch(/whsec_[0-9A-Za-z+/=]{8}/);
  });

  it("every log line carrying a request id carries it once; access-log lines carry each field once (raw text)", () => {
    const lines = flow.log.split("\n").filter((line) => line.startsWith("{"));
    const withRequestId = lines.filter((line) => line.includes('"requestId"'));
    expect(withRequestId.length).toBeGreaterThan(20);
    for (const line of withRequestId) expect(line.split('"requestId"').length - 1, line).toBe(1);
    const accessLines = lines.filter((line) => /"msg":"request (completed|failed)"/.test(line));
    for (const line of accessLines) {
      for (const field of ["requestId", "method", "route", "status", "ms", "level", "time", "msg"]) {
        expect(line.split(`"${field}":`).length - 1, `${field} in ${line}`).toBe(1);
      }
    }
  });

  it("API keys are stored only as SHA-256 hashes: no raw key in any row of any table", async () => {
    const db = await openDatabase(flow.databaseUrl);
    try {
      const dump = await dumpEveryTable(db.prisma);
      for (const key of [flow.ownerKey, ...flow.issuedKeys, flow.unknownKey]) expect(dump.includes(key), `${key.slice(0, 12)}… stored`).toBe(false);
      const hashes = (await db.prisma.apiKey.findMany()).map((row) => row.secretHash);
      // Every tenant key the flow issued is found by its hash (the unknown one never was); an
      // OWNER_API_KEY from the environment is compared in memory and has no row at all.
      for (const key of flow.issuedKeys) expect(hashes, `hash of ${key.slice(0, 12)}…`).toContain(hashSecret(key));
      expect(hashes).not.toContain(hashSecret(flow.unknownKey));
      expect(dump.includes(hashSecret(flow.ownerKey))).toBe(false);
    } finally {
      await db.close();
    }
  });

  it("a generated owner key is printed once on the first start, outside the JSON log, and stored only as its hash", async () => {
    const fresh = await createTestDatabase();
    const running = startMain({ DATABASE_URL: fresh.url, LOG_LEVEL: "info" });
    started.push(running);
    try {
      await waitUntilHealthy(running);
      const ownerKey = /Owner API key \(shown once, store it now\): (sk_owner_\w+)/.exec(running.stdout())?.[1];
      expect(ownerKey).toBeDefined();
      expect((await call({ url: running.baseUrl }, "GET", "/v1/tenants", { key: ownerKey! })).status).toBe(200);
      running.child.kill("SIGTERM");
      expect(await exitCode(running)).toBe(0);
      const output = running.stdout() + running.stderr();
      expect(output.split(ownerKey!).length - 1).toBe(1);
      expect(output.split("\n").filter((line) => line.startsWith("{") && line.includes(ownerKey!))).toEqual([]);
      const db = await openDatabase(fresh.url);
      try {
        const dump = await dumpEveryTable(db.prisma);
        expect(dump.includes(ownerKey!)).toBe(false);
        expect((await db.prisma.apiKey.findMany({ where: { kind: "owner" } })).map((row) => row.secretHash)).toEqual([hashSecret(ownerKey!)]);
      } finally {
        await db.close();
      }
    } finally {
      await fresh.drop();
    }
  });

  it("webhook signing secrets ARE stored (signing needs them), only in their tenant's row: in no event, delivery or attempt", async () => {
    const db = await openDatabase(flow.databaseUrl);
    try {
      const tenants = await db.prisma.tenant.findMany();
      const stored = tenants.flatMap((tenant) => [tenant.webhookSecret, tenant.previousWebhookSecret]).filter((secret) => secret !== null);
      expect(stored).toEqual(expect.arrayContaining(flow.webhookSecrets));
      const dump = await dumpEveryTable(db.prisma, ["Tenant"]);
      for (const secret of flow.webhookSecrets) expect(dump.includes(secret), `${secret.slice(0, 10)}… outside the tenant row`).toBe(false);
    } finally {
      await db.close();
    }
  });
});

/** Every row of every table (all models, except `skip`), as one text. */
async function dumpEveryTable(prisma: unknown, skip: string[] = []): Promise<string> {
  const models = Object.values(Prisma.ModelName).filter((model) => !skip.includes(model));
  const tables = await Promise.all(
    models.map(async (model) => {
      const delegate = (prisma as Record<string, { findMany(): Promise<unknown[]> }>)[model.charAt(0).toLowerCase() + model.slice(1)]!;
      return { model, rows: await delegate.findMany() };
    }),
  );
  expect(tables.find((table) => table.model === "ApiKey")?.rows.length).toBeGreaterThan(0);
  return JSON.stringify(tables, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/**
 * Item 7's sweep: every REST route with a path id (from the route table) and every GraphQL root
 * field taking an id (from the schema), called with another tenant's real ids, unknown
 * well-formed ids and malformed ones, answers 404 or null: never data, never a 403 that would
 * tell a record exists.
 */
describe("a sweep of guessed and foreign ids", () => {
  let server: TestServer;
  let receiver: Receiver;
  let own: TenantRecords;
  let foreign: TenantRecords;

  const MALFORMED = ["x", "0", "ord_", "ord_01ZZZZZZZZZZZZZZZZZZZZZZZZ", "' OR '1'='1", "%00", "🛫", "../tenant", "a".repeat(300)];

  /** For each kind, ids that are not the caller's: another tenant's, unknown well-formed ones, malformed ones. */
  function notYours(kind: IdKind): Array<{ what: string; id: string }> {
    const foreignIds: Record<IdKind, string[]> = {
      tenant: [],
      key: [foreign.keyId],
      order: Object.values(foreign.orderIds),
      document: foreign.documentIds,
      offer: foreign.offers.map((offer) => offer.id).slice(0, 2),
      delivery: foreign.deliveryIds.slice(0, 2),
      other: [],
    };
    const prefix: Record<IdKind, IdPrefix> = { tenant: "ten", key: "key", order: "ord", document: "doc", offer: "off", delivery: "whd", other: "evt" };
    return [
      ...foreignIds[kind].map((id) => ({ what: "another tenant's", id })),
      { what: "unknown", id: newId(prefix[kind]) },
      ...MALFORMED.map((id) => ({ what: "malformed", id })),
    ];
  }

  /** The caller's own real id of each kind, for the parameters not being swept. */
  function yours(kind: IdKind): string {
    const ids: Record<IdKind, string> = {
      tenant: own.tenantId,
      key: own.keyId,
      order: own.orderIds.ticketed,
      document: own.documentIds[0]!,
      offer: own.offers[0].id,
      delivery: own.deliveryIds[0]!,
      other: "x",
    };
    return ids[kind];
  }

  /** Bodies that pass validation, so only the id can be wrong. */
  const VALID_BODIES: Partial<Record<Operation, unknown>> = {
    updateTenant: { name: "Renamed" },
    createTenantApiKey: { label: "sweep" },
    updateOrderPassengers: { passengers: [{ id: "p1", given_name: "Grace" }] },
    addOrderServices: { add_services: [{ id: "ase_sweep" }] },
    creditWallet: { amount: "10.00", currency: "USD" },
    updateTenantWallet: { hold_limits: { max_unpaid_orders: 5 } },
    confirmOrderChange: {},
    simulateAirlineInitiatedChange: { kind: "retime" },
    updateWebhookEndpoint: { enabled: false },
    updatePricingRule: { active: false },
    setSupplierConnectionWebhookSecret: { webhook_secret: "whsec_sweep" },
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "50", WEBHOOK_RETRY_SCHEDULE: "0", RATE_LIMIT_RPS: "0", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
    own = await tenantWithRecords(server, receiver.url);
    foreign = await tenantWithRecords(server, receiver.url);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const routesWithIds = restRoutes.filter((route) => idParams(route.url).length > 0);

  it.each(routesWithIds.filter((route) => !isOwnerRoute(route)).map((route) => [routeName(route), route] as const))(
    "%s: another tenant's, unknown and malformed ids are 404 not_found, for the tenant's key and for the owner acting for it",
    async (_name, route) => {
      const params = idParams(route.url);
      const before = await databaseState(server);
      for (const swept of params) {
        for (const { what, id } of notYours(pathIdKind(route.url, swept))) {
          const path = fillPath(route.url, (name) => (name === swept ? id : yours(pathIdKind(route.url, name))));
          const callers: Array<Record<string, string>> = [{ authorization: `Bearer ${own.key}` }, { authorization: `Bearer ${server.ownerKey}`, "service-tenant": own.tenantId }];
          for (const headers of callers) {
            const response = await call(server, route.method, path, { body: VALID_BODIES[route.operation], headers: { ...headers, "idempotency-key": newKey("sweep") } });
            expect(response.status, `${what} ${swept} ${path}: ${JSON.stringify(response.body)}`).toBe(404);
            expectCatalogueError(response, 404, "not_found");
          }
        }
      }
      expect(await databaseState(server)).toEqual(before);
    },
  );

  it.each(routesWithIds.filter(isOwnerRoute).map((route) => [routeName(route), route] as const))(
    "%s: unknown and malformed ids are 404 for the owner; a tenant's key gets the same 403 whether the tenant exists or not",
    async (_name, route) => {
      const params = idParams(route.url);
      const before = await databaseState(server);
      const body = VALID_BODIES[route.operation];
      for (const swept of params) {
        for (const { what, id } of notYours(pathIdKind(route.url, swept))) {
          const path = fillPath(route.url, (name) => (name === swept ? id : yours(pathIdKind(route.url, name))));
          const response = await call(server, route.method, path, { key: server.ownerKey, body });
          expect(response.status, `${what} ${swept} ${path}: ${JSON.stringify(response.body)}`).toBe(404);
          expectCatalogueError(response);
          expect(["tenant_not_found", "not_found"]).toContain(response.body.errors[0].code);
        }
      }
      const asTenant = async (tenantId: string) => {
        const response = await call(server, route.method, fillPath(route.url, (name) => (name === "id" ? tenantId : yours(pathIdKind(route.url, name)))), { key: own.key, body });
        expectCatalogueError(response, 403, "forbidden");
        const { requestId: _requestId, ...rest } = response.body;
        return rest;
      };
      expect(await asTenant(foreign.tenantId)).toEqual(await asTenant(newId("ten")));
      expect(await databaseState(server)).toEqual(before);
    },
  );

  it("POST /v1/air/orders naming another tenant's offer is 404 not_found", async () => {
    const offer = foreign.offers[0];
    const response = await createOrderA(server, own.key, { ...offer, passengers: offer.passengers });
    expectCatalogueError(response, 404, "not_found");
  });

  const rootFieldsWithIds = (["query", "mutation"] as const).flatMap((kind) => {
    const type = kind === "query" ? servedSchema.getQueryType()! : servedSchema.getMutationType()!;
    return Object.values(type.getFields())
      .filter((field) => field.args.some((arg) => isIdArgument(arg.type)))
      .map((field) => [`${kind} ${field.name}`, kind, field] as const);
  });

  it.each(rootFieldsWithIds)("GraphQL %s: ids not the caller's give null or not_found, never data", async (_name, kind, field) => {
    const owner = operations[field.name as Operation].audience === "owner";
    const query = operationFor(kind, field);
    const before = await databaseState(server);
    for (const swept of field.args.filter((arg) => isIdArgument(arg.type))) {
      for (const { what, id } of notYours(argIdKind(field.name, swept.name))) {
        // Other required ids are the caller's; optional ones are alternatives (seatMaps' offerId or orderId), left out.
        const otherId = (arg: (typeof field.args)[number]) => (isNonNullType(arg.type) ? yours(argIdKind(field.name, arg.name)) : null);
        const variables = Object.fromEntries(
          field.args.map((arg) => [arg.name, arg.name === swept.name ? id : isIdArgument(arg.type) ? otherId(arg) : plausibleArgument(field.name, arg.name, arg.type)]),
        );
        const response = await graphql(server, query, variables, { key: owner ? server.ownerKey : own.key });
        const context = `${what} ${swept.name}=${id}: ${response.status} ${JSON.stringify(response.body)}`;
        // A list filtered by an id not the caller's (webhookDeliveries' endpointId, events' orderId) is empty.
        if (isFilteredList(field)) expect(response.body.data?.[field.name]?.totalCount ?? 0, context).toBe(0);
        else expect(response.body.data?.[field.name] ?? null, context).toBeNull();
        for (const error of response.body.errors ?? []) expect(["not_found", "tenant_not_found"], context).toContain(error.extensions.code);
      }
    }
    expect(await databaseState(server)).toEqual(before);
  });

  it("GraphQL createOrder naming another tenant's offer is not_found", async () => {
    const offer = foreign.offers[0];
    const response = await graphql(server, "mutation ($input: CreateOrderInput!) { createOrder(input: $input, idempotencyKey: \"sweep-offer\") { id } }", {
      input: { offerId: offer.id, passengers: [{ id: offer.passengers[0].id, givenName: "Ada", familyName: "Lovelace", bornOn: "1985-04-12", gender: "F", email: "ada@travel.example", phoneNumber: "+442080160508" }] },
    }, { key: own.key });
    expect(response.body.data?.createOrder ?? null).toBeNull();
    expect(response.body.errors?.[0]?.extensions.code).toBe("not_found");
  });

  it("orderStatusChanged over WebSocket for another tenant's order, an unknown or a malformed id: not_found, no order", async () => {
    const client = wsClient(server.wsUrl, { authorization: `Bearer ${own.key}` });
    try {
      for (const { what, id } of notYours("order")) {
        const subscription = subscribe(client, ORDER_STATUS_CHANGED, { orderId: id });
        await subscription.waitForEnd();
        // One result, the not_found error, and the subscription ends: the same for a foreign order as for none.
        expect(subscription.results.map((result) => ({ data: result.data ?? null, codes: result.errors?.map((error) => error.extensions.code) })), `${what} ${id}`).toEqual([{ data: null, codes: ["not_found"] }]);
        expect(subscription.completed).toBe(true);
      }
    } finally {
      await client.dispose();
    }
  });
});

/**
 * The router decodes a percent-encoded path (`/%761/wallet` is `/v1/wallet`),
 * so whether a request needs a key is decided on the route it matched. Every route and
 * `/graphql`, spelled with encoded characters, asks for a key exactly as its plain spelling does.
 */
describe("percent-encoded paths", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(restRoutes.map((route) => [routeName(route), route] as const))("%s: every encoded spelling without a key is 401 unauthorized", async (_name, route) => {
    for (const url of encodedSpellings(route.url)) {
      const path = fillPath(url, () => "x");
      expectCatalogueError(await call(server, route.method, path, { body: route.method === "GET" ? undefined : {} }), 401, "unauthorized");
    }
  });

  it("an encoded spelling with the right key reaches its route", async () => {
    expect((await call(server, "GET", "/%761/wallet", { key: tenant.key })).status).toBe(200);
    expect((await call(server, "GET", "/%76%31/tenants", { key: server.ownerKey })).status).toBe(200);
    // An unknown route under an encoded /v1 asks for a key before telling it does not exist, as the plain one does.
    expectCatalogueError(await call(server, "GET", "/%761/nothing-here"), 401, "unauthorized");
  });

  it("/graphql in every encoded spelling: 401 unauthorized without a key, in GraphQL's shape; answered with one", async () => {
    for (const path of [...encodedSpellings("/graphql"), "/graphq%6c"]) {
      const refused = await call(server, "POST", path, { body: { query: "{ viewer { kind } }" } });
      expect(refused.status, path).toBe(401);
      expect(refused.body.errors?.[0]?.extensions, path).toMatchObject({ code: "unauthorized", statusCode: 401 });
      const answered = await call(server, "POST", path, { key: tenant.key, body: { query: "{ viewer { kind } }" } });
      expect(answered.body, path).toEqual({ data: { viewer: { kind: "TENANT" } } });
    }
  });
});

/** Values for a GraphQL argument that pass validation, so only the swept id can be wrong. */
/** A root field answering a connection, whose id arguments are filters of the list. */
function isFilteredList(field: GraphQLField<unknown, unknown>): boolean {
  return getNamedType(field.type).name.endsWith("Connection");
}

function plausibleArgument(field: string, arg: string, type: GraphQLInputType): unknown {
  if (arg === "idempotencyKey") return newKey("sweep");
  // Optional filters and cursors are left out: only the id swept may be wrong.
  if (!isNonNullType(type)) return undefined;
  if (field === "updateWebhookEndpoint" && arg === "input") return { enabled: false };
  if (field === "updateOrderPassengers" && arg === "passengers") return [{ id: "p1", givenName: "Grace" }];
  if (field === "creditWallet") return { amount: "10.00", currency: "USD", reference: "sweep" }[arg];
  if (field === "confirmOrderChange" && arg === "payment") return { type: "BALANCE", amount: "10.00", currency: "USD" };
  if (field === "updateWebhookEndpoint" && arg === "input") return { description: "sweep" };
  // Other optional arguments are left out: a placeholder ("x" for a cursor or a date) would be refused before the id is looked up.
  if (!isNonNullType(type)) return null;
  return minimalValue(type);
}
