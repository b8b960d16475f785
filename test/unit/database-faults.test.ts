import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DatabaseAvailability } from "../../src/db/availability";
import { DatabaseUnavailableError, databaseFault } from "../../src/db/errors";

/**
 * The database's faults as the process sees them: which errors, in each layer's spelling, mean
 * the database cannot be reached or has no room (and which do not), and how DatabaseAvailability
 * answers, logs and recovers from them. The shapes are those Prisma 7, its adapters, `pg` and
 * better-sqlite3 produce (seen against a cut connection and a full file).
 */

const adapterError = (cause: Record<string, unknown>) => ({ name: "DriverAdapterError", cause });
const prismaError = (code: string, cause: Record<string, unknown>) => Object.assign(new Error("Invalid `prisma.$queryRaw()` invocation"), { name: "PrismaClientKnownRequestError", code, meta: { driverAdapterError: adapterError(cause) } });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: "connect", address: "127.0.0.1", port: 5432 });
const sqlState = (code: string) => Object.assign(new Error("terminating connection due to administrator command"), { code, severity: "FATAL" });

describe("databaseFault", () => {
  it.each([
    ["Prisma P1001 (the server refused the connection)", prismaError("P1001", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 })],
    ["Prisma P1017 (the server closed the connection)", prismaError("P1017", { kind: "ConnectionClosed" })],
    ["a raw query's P2010 carrying a closed connection", prismaError("P2010", { kind: "ConnectionClosed" })],
    ["a raw query's P2010 carrying SQLSTATE 57P01", prismaError("P2010", { kind: "postgres", code: "57P01", severity: "FATAL", message: "terminating connection" })],
    ["pg's own error for a connection lost mid-transaction", new Error("Client has encountered a connection error and is not queryable")],
    ["pg's error for a connection ended under a query", new Error("Connection terminated unexpectedly")],
    ["pg's pool failing to open a connection in time", new Error("Connection terminated due to connection timeout")],
    ["ECONNREFUSED", socketError("ECONNREFUSED")],
    ["ECONNRESET", socketError("ECONNRESET")],
    ["57P01 admin_shutdown", sqlState("57P01")],
    ["57P03 cannot_connect_now", sqlState("57P03")],
    ["class 08 (connection_failure)", sqlState("08006")],
    ["refused at once while known unreachable", new DatabaseUnavailableError("connection refused")],
    ["an error whose cause is one", new Error("booking failed", { cause: socketError("ECONNREFUSED") })],
  ])("%s: unreachable", (_what, error) => {
    expect(databaseFault(error)?.kind).toBe("unreachable");
  });

  it.each([
    ["better-sqlite3's SQLITE_FULL", Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" })],
    ["Prisma's P2010 carrying SQLITE_FULL", prismaError("P2010", { originalCode: "SQLITE_FULL", originalMessage: "database or disk is full", kind: "sqlite", extendedCode: 1 })],
    ["PostgreSQL's 53100 disk_full", sqlState("53100")],
  ])("%s: storage full", (_what, error) => {
    expect(databaseFault(error)?.kind).toBe("storage_full");
  });

  it.each([
    ["a unique violation", prismaError("P2002", { kind: "UniqueConstraintViolation" })],
    ["SQLite's SQLITE_BUSY, which its adapter calls SocketTimeout", prismaError("P2010", { originalCode: "SQLITE_BUSY", kind: "SocketTimeout" })],
    ["a bug", new TypeError("cannot read properties of undefined")],
    ["a wrong password (28P01)", sqlState("28P01")],
    ["nothing at all", undefined],
  ])("%s: not a database fault", (_what, error) => {
    expect(databaseFault(error)).toBeNull();
  });

  it("Prisma's P2028 (no pooled connection came free for a transaction) and pg's pool wait running out: busy, not an outage", () => {
    const busy = Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { name: "PrismaClientKnownRequestError", code: "P2028", meta: {} });
    expect(databaseFault(busy)?.kind).toBe("busy");
    expect(databaseFault(new Error("timeout exceeded when trying to connect"))?.kind).toBe("busy");
  });

  it("names where the refused connection went, and no credentials", () => {
    expect(databaseFault(socketError("ECONNREFUSED"))).toEqual({ kind: "unreachable", reason: "connection refused (127.0.0.1:5432)" });
  });
});

describe("DatabaseAvailability", () => {
  let lines: Array<{ level: number; msg: string } & Record<string, unknown>>;
  let probeAnswers: boolean;
  let availability: DatabaseAvailability;
  let roomAnswers: boolean;

  beforeEach(() => {
    vi.useFakeTimers();
    lines = [];
    probeAnswers = false;
    roomAnswers = false;
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    availability = new DatabaseAvailability(
      async () => {
        if (!probeAnswers) throw socketError("ECONNREFUSED");
      },
      "PostgreSQL at db:5432, database aerogate",
      async () => roomAnswers,
    );
    availability.reportTo(pino({ level: "info" }, sink));
  });

  afterEach(() => {
    availability.close();
    vi.useRealTimers();
  });

  const messages = () => lines.map((line) => line.msg);

  it("tells an outage once, refuses at once meanwhile, sums refusals up once a second, and tells its end", async () => {
    for (let request = 0; request < 50; request++) expect(availability.refusal(socketError("ECONNREFUSED"))?.code).toBe("service_unavailable");
    expect(availability.reachable).toBe(false);
    expect(() => availability.assertReachable()).toThrow(DatabaseUnavailableError);
    expect(availability.absorb(new Error("Connection terminated unexpectedly"))).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    for (let request = 0; request < 7; request++) availability.refusal(new DatabaseUnavailableError("connection refused"));
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);

    const back = availability.whenReachable();
    probeAnswers = true;
    await vi.advanceTimersByTimeAsync(250);
    await back;
    expect(availability.reachable).toBe(true);
    expect(availability.whenReachable()).toBeNull();
    expect(messages()).toEqual(["database unreachable", "50 requests refused in the last second", "7 requests refused in the last second", "database reachable again"]);
    expect(lines[0]).toMatchObject({ level: 50, database: "PostgreSQL at db:5432, database aerogate", reason: "connection refused (127.0.0.1:5432)" });
    expect(lines[1]).toMatchObject({ refused: 50, deferredBackgroundWork: 1 });
    expect(lines[3]).toMatchObject({ level: 40, refused: 57, downSeconds: expect.any(Number) });
    // Quiet again: no more summaries.
    await vi.advanceTimersByTimeAsync(5000);
    expect(lines).toHaveLength(4);
  });

  it("asks clients to wait 1 s at first, a second more per 10 s of outage, 10 s at most; 30 s for a full disk", async () => {
    expect(availability.refusal(socketError("ECONNRESET"))?.details.retryAfterSeconds).toBe(1);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(availability.refusal(socketError("ECONNRESET"))?.details.retryAfterSeconds).toBe(3);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(availability.refusal(socketError("ECONNRESET"))?.details.retryAfterSeconds).toBe(10);
    const full = availability.refusal(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }));
    expect({ code: full?.code, status: full?.status, retryAfter: full?.details.retryAfterSeconds }).toEqual({ code: "storage_full", status: 507, retryAfter: 30 });
  });

  it("answers a busy pool's refusal with 503 and Retry-After 1 for that request alone, the database still reachable and nothing logged", () => {
    const busy = availability.refusal(Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028" }));
    expect({ code: busy?.code, status: busy?.status, retryAfter: busy?.details.retryAfterSeconds }).toEqual({ code: "service_unavailable", status: 503, retryAfter: 1 });
    expect(availability.reachable).toBe(true);
    expect(() => availability.assertReachable()).not.toThrow();
    expect(lines).toHaveLength(0);
  });

  it("has a busy pool's database probed once: answering, it stays reachable; not answering, the outage begins", async () => {
    const poolWait = () => new Error("timeout exceeded when trying to connect");
    probeAnswers = true;
    expect(availability.refusal(poolWait())?.details.retryAfterSeconds).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(availability.reachable).toBe(true);
    // Within the second, no second probe; after it, one that fails starts the outage.
    probeAnswers = false;
    availability.refusal(poolWait());
    await vi.advanceTimersByTimeAsync(10);
    expect(availability.reachable).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    availability.refusal(poolWait());
    await vi.advanceTimersByTimeAsync(10);
    expect(availability.reachable).toBe(false);
    expect(messages().filter((message) => message === "database unreachable")).toHaveLength(1);
  });

  it("keeps a full disk full until its room probe sees room, whatever writes pass meanwhile", async () => {
    availability.refusal(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }));
    expect(availability.status().storageFull).not.toBeNull();
    expect(availability.reachable).toBe(true);
    availability.noticeWrite();
    await vi.advanceTimersByTimeAsync(3000);
    expect(availability.status().storageFull).not.toBeNull();
    roomAnswers = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(availability.status().storageFull).toBeNull();
    expect(messages()).toEqual(["database storage full: writes are refused until there is room", "1 request refused in the last second", "database storage has room again"]);
  });

  it("runs a deferred write once the database is back, and again while it fails with a fault", async () => {
    availability.notice(socketError("ECONNREFUSED"));
    let attempts = 0;
    availability.defer(async () => {
      attempts++;
      if (attempts === 1) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(attempts).toBe(0);
    probeAnswers = true;
    await vi.advanceTimersByTimeAsync(250);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(attempts).toBe(2);
  });
});
