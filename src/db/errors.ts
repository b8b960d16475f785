/**
 * A unique-constraint violation, on either provider and either path: Prisma's model operations
 * (P2002), Prisma raw SQL on PostgreSQL (a driver error of kind UniqueConstraintViolation), or a
 * better-sqlite3 statement (writeBatch, queryRows on SQLite).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, meta } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };
  return (
    code === "P2002" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation"
  );
}

/**
 * Why a statement could not run that is the database's condition, not the statement's fault:
 * the database cannot be reached (`unreachable`: 503 to a request), it has no room to write
 * (`storage_full`: 507), or every connection of the pool stayed taken while a transaction waited
 * for one (`busy`: 503 to that request alone; the database is up, only loaded). `reason` is short and holds no credentials.
 */
export interface DatabaseFault {
  kind: "unreachable" | "storage_full" | "busy";
  reason: string;
}

/** Thrown without asking the database while it is known to be unreachable (db/availability.ts). */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
  constructor(readonly reason: string) {
    super(`the database is unreachable: ${reason}`);
  }
}

/**
 * No host of a PostgreSQL URL is a writable primary now: all are down, or standbys not promoted
 * yet (db/primary-locator.ts). An outage like any other: the probe keeps looking.
 */
export class NoPrimaryError extends Error {
  override name = "NoPrimaryError";
  constructor(readonly reason: string) {
    super(`no writable primary: ${reason}`);
  }
}

/** Node socket errors meaning the server cannot be reached or went away. */
const SOCKET_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ECONNABORTED: "connection aborted",
  EPIPE: "connection broken",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed",
};

/** PostgreSQL SQLSTATEs (class 08 is matched as a class): the server is going or not taking connections. */
const POSTGRES_UNREACHABLE: Record<string, string> = {
  "57P01": "the server is shutting down (57P01)",
  "57P02": "the server crashed (57P02)",
  "57P03": "the server is not accepting connections yet (57P03)",
  "53300": "the server has no connection slot left (53300)",
  // A write reached a standby: the primary this connection was opened to is one no more (a failover).
  "25006": "the server is a read-only standby, not the primary (25006)",
};
const POSTGRES_DISK_FULL = "53100";

/** The `pg` driver's own errors for a connection it lost or could not make (they carry no code). */
const PG_CONNECTION_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "Client has encountered a connection error and is not queryable",
];

/**
 * `pg`'s pool waited its connect timeout for one of its connections to come free: every pooled
 * connection was busy (the process is loaded), which says nothing of the server by itself.
 */
const PG_POOL_WAIT_MESSAGE = "timeout exceeded when trying to connect";

/** Prisma's codes for a server it cannot reach or that closed the connection. */
const PRISMA_UNREACHABLE: Record<string, string> = {
  P1001: "the database server cannot be reached",
  P1002: "the database server timed out",
  P1017: "the database server closed the connection",
};

/** Prisma could not start an interactive transaction within its wait: every pooled connection was taken. */
const PRISMA_TRANSACTION_NOT_STARTED = "P2028";

/** The driver-adapter error kinds (PostgreSQL's adapter) meaning the same. */
const ADAPTER_UNREACHABLE: Record<string, string> = {
  DatabaseNotReachable: "the database server cannot be reached",
  ConnectionClosed: "the database server closed the connection",
  TooManyConnections: "the database server has no connection slot left",
};

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  reason?: unknown;
  address?: unknown;
  port?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  extendedCode?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

function faultOf(error: ErrorLike): DatabaseFault | null {
  if (error instanceof DatabaseUnavailableError || error instanceof NoPrimaryError) return { kind: "unreachable", reason: error.reason };
  const code = typeof error.code === "string" ? error.code : undefined;
  const originalCode = typeof error.originalCode === "string" ? error.originalCode : undefined;
  // SQLite (better-sqlite3 directly, or through Prisma's adapter): a full disk or file size limit.
  if (code?.startsWith("SQLITE_FULL") || originalCode?.startsWith("SQLITE_FULL") || (error.kind === "sqlite" && error.extendedCode === 13)) {
    return { kind: "storage_full", reason: "the database file cannot grow (SQLITE_FULL)" };
  }
  // Everything below is about a server connection; SQLite's adapter maps SQLITE_BUSY to SocketTimeout.
  if (originalCode?.startsWith("SQLITE")) return null;
  if (code !== undefined && code in SOCKET_CODES) {
    const where = typeof error.address === "string" && error.port !== undefined ? ` (${error.address}:${String(error.port)})` : "";
    return { kind: "unreachable", reason: `${SOCKET_CODES[code]}${where}` };
  }
  // A SQLSTATE, from `pg` itself or as the adapter passes it on (kind "postgres").
  if (code === POSTGRES_DISK_FULL) return { kind: "storage_full", reason: "the database server's disk is full (53100)" };
  if (code !== undefined && code in POSTGRES_UNREACHABLE) return { kind: "unreachable", reason: POSTGRES_UNREACHABLE[code]! };
  if (code !== undefined && /^08[0-9A-Z]{3}$/.test(code)) return { kind: "unreachable", reason: `the connection failed (${code})` };
  if (code === PRISMA_TRANSACTION_NOT_STARTED) return { kind: "busy", reason: "no database connection came free in time for a transaction (P2028)" };
  if (code !== undefined && code in PRISMA_UNREACHABLE) return { kind: "unreachable", reason: PRISMA_UNREACHABLE[code]! };
  if (typeof error.kind === "string" && error.kind in ADAPTER_UNREACHABLE) return { kind: "unreachable", reason: ADAPTER_UNREACHABLE[error.kind]! };
  if (error.kind === "SocketTimeout") return { kind: "unreachable", reason: "the database server timed out" };
  if (error.message === PG_POOL_WAIT_MESSAGE) return { kind: "busy", reason: "no pooled database connection came free in time" };
  if (typeof error.message === "string" && PG_CONNECTION_MESSAGES.some((message) => error.message === message)) {
    return { kind: "unreachable", reason: error.message.toLowerCase() };
  }
  return null;
}

/**
 * The database fault behind `error`, or null when it is anything else (a constraint, a bug, a
 * client's mistake). The one place that knows how each layer spells a lost or refused
 * connection and a full disk: Prisma's errors (P1001, P1017, a raw query's P2010 carrying the
 * driver's error), the PostgreSQL adapter's error kinds, `pg`'s own errors and SQLSTATEs (57P01,
 * 57P03, class 08, 53100), Node's socket errors (ECONNREFUSED, ECONNRESET, …), better-sqlite3's
 * SQLITE_FULL, and our own DatabaseUnavailableError. Looks through `cause` chains and Prisma's
 * `meta.driverAdapterError`.
 */
export function databaseFault(error: unknown): DatabaseFault | null {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const next = pending.shift();
    if (typeof next !== "object" || next === null || seen.has(next) || seen.size > 8) continue;
    seen.add(next);
    const candidate = next as ErrorLike;
    // Prisma's raw-query error (P2010) carries the driver's error; its own code says only "raw query failed".
    const adapterError = candidate.meta?.driverAdapterError as ErrorLike | undefined;
    if (adapterError) pending.push(adapterError.cause, adapterError);
    const fault = faultOf(candidate);
    if (fault) return fault;
    pending.push(candidate.cause);
  }
  return null;
}
