import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCode, killStillRunning, pollUntil, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * The real entry point (`src/main.ts`, what `npm start` runs) as a child process: first-start
 * owner key, graceful shutdown with a request in flight, and refusal of a bad configuration.
 * The database is a temporary SQLite file, or a fresh PostgreSQL database under TEST_DATABASE_URL.
 */

const OWNER_KEY_PATTERN = /sk_owner_[A-Za-z0-9_-]{16,}/g;

// Each start compiles the whole app with tsx: several seconds, far more on a loaded machine.
describe("the entry point as a process", { timeout: 90_000 }, () => {
  let database: TestDatabase;
  const started: Running[] = [];

  function launch(env: Record<string, string>): Running {
    const running = startMain(env);
    started.push(running);
    return running;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    // Only the processes this suite started, and only those still running.
    await killStillRunning(started);
    await database.drop();
  });

  describe("on a fresh database with no OWNER_API_KEY", () => {
    let first: Running;
    let ownerKey: string;
    let inFlightTenantId: string;

    beforeAll(async () => {
      first = launch({ DATABASE_URL: database.url });
      await waitUntilHealthy(first);
    });

    it("prints the owner key once on stdout, and that key works", async () => {
      const keys = first.stdout().match(OWNER_KEY_PATTERN) ?? [];
      expect(keys, first.stdout()).toHaveLength(1);
      ownerKey = keys[0]!;
      expect(first.stderr()).not.toContain(ownerKey);

      const response = await fetch(`${first.baseUrl}/v1/tenants`, { headers: { authorization: `Bearer ${ownerKey}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { success: boolean; data: { items: unknown[] } };
      expect(body.success).toBe(true);
      expect(body.data.items).toEqual([]);
      const refused = await fetch(`${first.baseUrl}/v1/tenants`, { headers: { authorization: "Bearer sk_owner_00000000000000000000000000000000" } });
      expect(refused.status).toBe(401);
    });

    it("answers what the router or Node's parser refuses in the catalogue's shape, each with its log line", async () => {
      const logLineOf = (requestId: string) => pollUntil(first, `a log line for ${requestId}`, async () => first.stdout().split("\n").find((line) => line.includes(requestId)));

      const badPath = await fetch(`${first.baseUrl}/v1/air/orders/%E0%A4%A`);
      expect(badPath.status).toBe(400);
      expect(JSON.parse(await logLineOf(badPath.headers.get("x-request-id")!))).toMatchObject({ route: "unmatched", status: 400, msg: "request completed" });

      const raw = async (request: string) => {
        const socket = net.connect(first.port, "127.0.0.1");
        socket.end(request);
        const chunks: Buffer[] = [];
        for await (const chunk of socket) chunks.push(chunk as Buffer);
        const [head, body] = Buffer.concat(chunks).toString("utf8").split("\r\n\r\n");
        return { statusLine: head!.split("\r\n")[0], requestId: /x-request-id: (\S+)/.exec(head!)?.[1], body: JSON.parse(body!) };
      };
      const longUrl = await raw(`GET /v1/air/orders/${"a".repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(longUrl.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
      expect(longUrl.body).toMatchObject({ errors: [{ code: "request_headers_too_large" }], statusCode: 431, requestId: longUrl.requestId });
      expect(JSON.parse(await logLineOf(longUrl.requestId!))).toMatchObject({ status: 431, reason: "HPE_HEADER_OVERFLOW", msg: "request refused before routing" });
      const garbage = await raw("NOT HTTP AT ALL\r\n\r\n");
      expect(garbage.statusLine).toBe("HTTP/1.1 400 Bad Request");
      expect(garbage.body).toMatchObject({ errors: [{ code: "malformed_http_request" }], errorCode: "MALFORMED_HTTP_REQUEST" });
    });

    it("SIGTERM lets an in-flight request on a keep-alive connection finish, then exits 0 at once", async () => {
      const body = JSON.stringify({ name: "In Flight Travel", email: "ops@inflight.test" });
      const half = Math.floor(body.length / 2);
      const request = http.request({
        host: "127.0.0.1",
        port: first.port,
        method: "POST",
        path: "/v1/tenants",
        // Keep-alive, as real clients connect: the answer must close the connection, or the
        // shutdown would wait for the connection's idle timeout (72 s).
        agent: new http.Agent({ keepAlive: true }),
        headers: {
          authorization: `Bearer ${ownerKey}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          // The server answers 100 Continue once it has the headers: the request is in flight.
          expect: "100-continue",
        },
      });
      const response = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
        request.on("response", (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
          res.on("error", reject);
        });
        request.on("error", reject);
      });
      request.flushHeaders();
      await once(request, "continue");
      request.write(body.slice(0, half));

      first.child.kill("SIGTERM");
      // The process has begun shutting down while the request is still incomplete.
      await pollUntil(first, "the shutdown log line", async () => (first.stdout().includes("shutting down") ? true : undefined), 10_000);
      const refusedNewConnection = await fetch(`${first.baseUrl}/healthz`).then(
        (r) => r.status,
        () => "refused",
      );
      expect([503, "refused"]).toContain(refusedNewConnection);

      request.end(body.slice(half));
      const answered = await response;
      expect(answered.status, answered.text).toBe(201);
      expect(answered.connection).toBe("close");
      const created = JSON.parse(answered.text) as { data: { tenantId: string; name: string } };
      expect(created.data.name).toBe("In Flight Travel");
      inFlightTenantId = created.data.tenantId;

      expect(await exitCode(first, 10_000)).toBe(0);
    });

    it("a second start on the same database prints no key; the first key and the in-flight write survive", async () => {
      const second = launch({ DATABASE_URL: database.url });
      await waitUntilHealthy(second);
      expect(second.stdout().match(OWNER_KEY_PATTERN) ?? [], second.stdout()).toEqual([]);

      const response = await fetch(`${second.baseUrl}/v1/tenants`, { headers: { "x-api-key": ownerKey } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { items: Array<{ tenantId: string }> } };
      expect(body.data.items.map((tenant) => tenant.tenantId)).toEqual([inFlightTenantId]);

      second.child.kill("SIGINT");
      expect(await exitCode(second)).toBe(0);
    });
  });

  // Concurrent: each start pays tsx's compile time, and the three are independent.
  describe.concurrent("an invalid configuration", { timeout: 90_000 }, () => {
    it("PORT=abc exits non-zero, naming PORT", async ({ expect }) => {
      const running = launch({ DATABASE_URL: database.url, PORT: "abc" });
      const code = await exitCode(running);
      const output = `exit ${code}\nstderr:\n${running.stderr()}`;
      expect(code, output).toBe(1);
      expect(running.stderr(), output).toMatch(/Invalid configuration/);
      expect(running.stderr(), output).toMatch(/\bPORT\b/);
      expect(running.stderr(), output).not.toMatch(/\n\s+at /);
    });

    it("DATABASE_URL=mysql://x exits non-zero, naming DATABASE_URL", async ({ expect }) => {
      const running = launch({ DATABASE_URL: "mysql://x" });
      const code = await exitCode(running);
      const output = `exit ${code}\nstderr:\n${running.stderr()}`;
      expect(code, output).toBe(1);
      expect(running.stderr(), output).toMatch(/\bDATABASE_URL\b/);
      expect(running.stderr(), output).toMatch(/file:|postgresql:/);
    });

    it("a malformed OWNER_API_KEY exits non-zero, naming it without echoing the secret", async ({ expect }) => {
      const running = launch({ DATABASE_URL: database.url, OWNER_API_KEY: "sk_owner_tooShort" });
      const code = await exitCode(running);
      const output = `exit ${code}\nstderr:\n${running.stderr()}`;
      expect(code, output).toBe(1);
      expect(running.stderr(), output).toMatch(/\bOWNER_API_KEY\b/);
      expect(running.stderr() + running.stdout(), output).not.toContain("sk_owner_tooShort");
    });
  });
});
