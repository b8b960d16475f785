import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * The real entry point (`src/main.ts`, what `npm start` runs) as a child process: first-start
 * owner key, graceful shutdown with a request in flight, and refusal of a bad configuration.
 * The database is a temporary SQLite file, or a fresh PostgreSQL database under TEST_DATABASE_URL.
 */

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const STARTUP_DEADLINE_MS = 45_000;
const OWNER_KEY_PATTERN = /sk_owner_[A-Za-z0-9_-]{16,}/g;

/** A port nothing listens on right now: bind to 0, read the port, release it. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  port: number;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exited: Promise<number | string>;
}

/** Starts `node --import tsx src/main.ts` with the given environment; OWNER_API_KEY is never inherited. */
function startMain(env: Record<string, string>, port: number): Running {
  const inherited = { ...process.env };
  delete inherited.OWNER_API_KEY;
  delete inherited.DATABASE_URL;
  delete inherited.PORT;
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: repoRoot,
    env: { ...inherited, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", RATE_LIMIT_RPS: "0", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, stdout: () => out, stderr: () => err, exited };
}

/** Polls until `check` returns a value, the process exits, or the deadline passes. */
async function pollUntil<T>(running: Running, what: string, check: () => Promise<T | undefined>, deadlineMs = STARTUP_DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let exitedWith: number | string | undefined;
  void running.exited.then((code) => (exitedWith = code));
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (exitedWith !== undefined) throw new Error(`process exited (${exitedWith}) before ${what}\nstdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nstdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until /healthz answers 200. */
function waitUntilHealthy(running: Running): Promise<true> {
  return pollUntil(running, "/healthz", async () => ((await fetch(`${running.baseUrl}/healthz`)).status === 200 ? true : undefined));
}

/** Waits for the process to exit, failing after a deadline instead of hanging the suite. */
async function exitCode(running: Running, deadlineMs = STARTUP_DEADLINE_MS): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`process did not exit within ${deadlineMs} ms\nstdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`)), deadlineMs);
  });
  try {
    return await Promise.race([running.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Each start compiles the whole app with tsx: several seconds, far more on a loaded machine.
describe("the entry point as a process", { timeout: 90_000 }, () => {
  let database: TestDatabase;
  const started: Running[] = [];

  function launch(env: Record<string, string>, port: number): Running {
    const running = startMain(env, port);
    started.push(running);
    return running;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    // Only the processes this suite started, and only those still running.
    for (const running of started) {
      if (running.child.exitCode === null && running.child.signalCode === null) {
        running.child.kill("SIGKILL");
        await running.exited;
      }
    }
    await database.drop();
  });

  describe("on a fresh database with no OWNER_API_KEY", () => {
    let first: Running;
    let ownerKey: string;
    let inFlightTenantId: string;

    beforeAll(async () => {
      first = launch({ DATABASE_URL: database.url }, await freePort());
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

    it("SIGTERM lets an in-flight request finish, then exits 0", async () => {
      const body = JSON.stringify({ name: "In Flight Travel", email: "ops@inflight.test" });
      const half = Math.floor(body.length / 2);
      const request = http.request({
        host: "127.0.0.1",
        port: first.port,
        method: "POST",
        path: "/v1/tenants",
        agent: false,
        headers: {
          authorization: `Bearer ${ownerKey}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          connection: "close",
          // The server answers 100 Continue once it has the headers: the request is in flight.
          expect: "100-continue",
        },
      });
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        request.on("response", (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
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
      const created = JSON.parse(answered.text) as { data: { tenantId: string; name: string } };
      expect(created.data.name).toBe("In Flight Travel");
      inFlightTenantId = created.data.tenantId;

      expect(await exitCode(first)).toBe(0);
    });

    it("a second start on the same database prints no key; the first key and the in-flight write survive", async () => {
      const second = launch({ DATABASE_URL: database.url }, await freePort());
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
      const running = launch({ DATABASE_URL: database.url, PORT: "abc" }, 0);
      const code = await exitCode(running);
      const output = `exit ${code}\nstderr:\n${running.stderr()}`;
      expect(code, output).toBe(1);
      expect(running.stderr(), output).toMatch(/Invalid configuration/);
      expect(running.stderr(), output).toMatch(/\bPORT\b/);
      expect(running.stderr(), output).not.toMatch(/\n\s+at /);
    });

    it("DATABASE_URL=mysql://x exits non-zero, naming DATABASE_URL", async ({ expect }) => {
      const running = launch({ DATABASE_URL: "mysql://x" }, await freePort());
      const code = await exitCode(running);
      const output = `exit ${code}\nstderr:\n${running.stderr()}`;
      expect(code, output).toBe(1);
      expect(running.stderr(), output).toMatch(/\bDATABASE_URL\b/);
      expect(running.stderr(), output).toMatch(/file:|postgresql:/);
    });

    it("a malformed OWNER_API_KEY exits non-zero, naming it without echoing the secret", async ({ expect }) => {
      const running = launch({ DATABASE_URL: database.url, OWNER_API_KEY: "sk_owner_tooShort" }, await freePort());
      const code = await exitCode(running);
      const output = `exit ${code}\nstderr:\n${running.stderr()}`;
      expect(code, output).toBe(1);
      expect(running.stderr(), output).toMatch(/\bOWNER_API_KEY\b/);
      expect(running.stderr() + running.stdout(), output).not.toContain("sk_owner_tooShort");
    });
  });
});
