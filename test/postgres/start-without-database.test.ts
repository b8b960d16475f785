import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { exitCode, killStillRunning, pollUntil, startMain, type Running } from "../helpers/main-process";
import { freePort, startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * The real entry point started while its PostgreSQL cannot be reached: it waits, with backoff,
 * up to DATABASE_WAIT_SECONDS, answering /healthz (alive) and /readyz (503, naming the database
 * and why) meanwhile and refusing the API with 503; it starts serving as soon as the database is
 * there, or exits non-zero naming the database once the wait is over. The database is reached
 * through a proxy that does not listen yet, or a port nothing listens on.
 */

describe("starting while PostgreSQL cannot be reached", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  const proxies: TcpProxy[] = [];
  const started: Running[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.provider !== "postgresql") throw new Error("this suite needs TEST_DATABASE_URL (npm run test:pg)");
  });

  afterAll(async () => {
    await killStillRunning(started);
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await database?.drop();
  });

  const target = () => {
    const url = new URL(database.url);
    return { host: url.hostname, port: Number(url.port || 5432) };
  };
  const databaseName = () => new URL(database.url).pathname.slice(1);
  /** How the URL's credentials would appear in a message that printed it. */
  const credentials = () => `:${new URL(database.url).password}@`;

  it("waits with /healthz answering and /readyz saying why, refuses the API with 503, and serves once the database is there", async () => {
    const proxy = await startTcpProxy(target(), { startCut: true });
    proxies.push(proxy);
    const ownerKey = generateSecret("owner");
    const running = startMain({ DATABASE_URL: proxy.via(database.url), OWNER_API_KEY: ownerKey, DATABASE_WAIT_SECONDS: "60" });
    started.push(running);

    await pollUntil(running, "/healthz while waiting", async () => ((await fetch(`${running.baseUrl}/healthz`)).status === 200 ? true : undefined));
    const readiness = await fetch(`${running.baseUrl}/readyz`);
    expect(readiness.status).toBe(503);
    const why = (await readiness.json()) as Record<string, string>;
    expect(why).toMatchObject({ status: "not_ready", database: "unreachable", name: `PostgreSQL at 127.0.0.1:${proxy.port}, database ${databaseName()}` });
    expect(why.reason).toContain("connection refused");

    const rest = await fetch(`${running.baseUrl}/v1/tenants`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(rest.status).toBe(503);
    expect(rest.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await rest.json()).toMatchObject({ errors: [{ code: "service_unavailable" }], statusCode: 503, retryable: true });
    const graphql = await fetch(`${running.baseUrl}/graphql`, { method: "POST", headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" }, body: JSON.stringify({ query: "{ viewer { __typename } }" }) });
    expect(graphql.status).toBe(503);
    expect(((await graphql.json()) as { errors: Array<{ extensions: Record<string, unknown> }> }).errors[0]!.extensions).toMatchObject({ code: "service_unavailable" });

    await proxy.restore();
    const restoredAt = Date.now();
    await pollUntil(running, "/readyz once the database is there", async () => ((await fetch(`${running.baseUrl}/readyz`)).status === 200 ? true : undefined));
    // The wait backs off to one attempt every 2 s; the start (migrations, services) follows.
    expect(Date.now() - restoredAt).toBeLessThan(15_000);
    const served = await fetch(`${running.baseUrl}/v1/tenants`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(served.status).toBe(200);

    const output = running.stdout() + running.stderr();
    expect(output.match(/^Aerogate listening on /gm)).toHaveLength(1);
    expect(output).toContain('"msg":"database unreachable at start; waiting for it"');
    expect(output).not.toContain(credentials());
  });

  it("exits non-zero naming the database once DATABASE_WAIT_SECONDS have passed", async () => {
    const port = await freePort();
    const url = new URL(database.url);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    const running = startMain({ DATABASE_URL: url.toString(), OWNER_API_KEY: generateSecret("owner"), DATABASE_WAIT_SECONDS: "2" });
    started.push(running);
    const startedAt = Date.now();

    expect(await exitCode(running)).toBe(1);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2000);
    expect(running.stderr()).toContain(`Aerogate failed to start: the database (PostgreSQL at 127.0.0.1:${port}, database ${databaseName()}) could not be reached within 2 s (DATABASE_WAIT_SECONDS): connection refused`);
    expect(running.stdout() + running.stderr()).not.toContain(credentials());
  });
});
