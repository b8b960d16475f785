import { z } from "zod";
import { PAUSE_POINTS } from "./test-pause";

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const secondsList = z
  .string()
  .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "a comma-separated list of seconds, e.g. 0,5,300 (decimals allowed: 0.5)")
  .transform((value) => value.split(",").map(Number));

/** `"200-600"` or `"300"` as bounds in milliseconds; null when the text is neither. */
function parseLatencyRange(text: string): { min: number; max: number } | null {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!match) return null;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return max >= min ? { min, max } : null;
}

/** Every environment variable the service reads, with its default. Parsed once, at start. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)")
    .default("file:./data/aerogate.db"),
  /**
   * PostgreSQL only: where the process's LISTEN connection goes, when DATABASE_URL goes through a
   * transaction-pooling PgBouncer (which cannot carry a LISTEN): PostgreSQL itself, one host or
   * several as in DATABASE_URL. Unset: DATABASE_URL.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgresql:// (the PostgreSQL server itself, not a transaction pooler)")
    .optional(),
  /**
   * PostgreSQL only: the connections each process's pool opens at most. Behind a transaction
   * pooler these are cheap client connections; PgBouncer's own pool bounds the server's.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
  /** How long a process starting while its PostgreSQL cannot be reached waits for it before exiting non-zero. */
  DATABASE_WAIT_SECONDS: z.coerce.number().min(0).default(60),
  OWNER_API_KEY: z
    .string()
    .regex(/^sk_owner_[A-Za-z0-9_-]{16,}$/, "must look like sk_owner_ followed by at least 16 characters")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  OFFER_TTL_SECONDS: z.coerce.number().int().min(1).default(1800),
  /** How long the simulated low-cost supplier takes to answer a search, ms: `200-600` (a range) or `300`. */
  SUPPLIER_LCC_LATENCY_MS: z
    .string()
    .transform((text, context) => parseLatencyRange(text) ?? (context.addIssue({ code: "custom", message: "a latency in ms, or a range such as 200-600" }), z.NEVER))
    .prefault("200-600"),
  /** The share of the simulated low-cost supplier's searches that fail, 0–1 (deterministic per request). */
  SUPPLIER_LCC_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
  /** Consecutive failures or timeouts after which a supplier's circuit opens (per process). */
  SUPPLIER_BREAKER_FAILURES: z.coerce.number().int().min(1).default(5),
  /** How long an open circuit skips its supplier before one trial call. */
  SUPPLIER_BREAKER_COOLDOWN_SECONDS: z.coerce.number().min(0).default(30),
  /** How often each process writes its suppliers' call figures for GET /v1/suppliers (every process's together). */
  SUPPLIER_STATS_FLUSH_MS: z.coerce.number().int().min(10).default(5000),
  /**
   * How long a search and its offers (and an order change's offers, a cancellation quote never
   * confirmed) are kept after they expire; then they read as not found (docs/retention.md).
   */
  OFFER_RETENTION_SECONDS: z.coerce.number().int().min(0).default(86400),
  /** How long the webhook delivery log (deliveries and their attempts) is kept, and so how far back the events API lists events. */
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** How long the audit log keeps each event (docs/retention.md). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(400),
  /** How often each process removes what retention says is past keeping, in bounded batches. */
  RETENTION_SWEEP_SECONDS: z.coerce.number().min(0.01).default(60),
  /** How long a booked order is held unpaid before it is cancelled (never past 24 h before departure; src/orders/payment/hold-deadline.ts). */
  ORDER_HOLD_SECONDS: z.coerce.number().int().min(1).default(86400),
  TICKETING_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  /** How long one attempt of a supplier call made while a client waits (holds, seat sales and exchanges, releases) may take (docs/supplier-contract.md#timeouts-and-retries). */
  SUPPLIER_CALL_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** How long one attempt of a supplier call made by a background job (ticketing, EMDs, reissues, refunds) may take; the job's lease is renewed meanwhile. */
  SUPPLIER_JOB_CALL_TIMEOUT_MS: z.coerce.number().int().min(1).default(300_000),
  /** How many times a supplier call that timed out or failed without an answer is tried again. */
  SUPPLIER_CALL_RETRIES: z.coerce.number().int().min(0).default(2),
  /** The wait before a supplier call's first retry; each next one doubles (with jitter). */
  SUPPLIER_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).default(200),
  /** How long a claimed ticketing or refund job is leased; a job of a process that died runs again after it. */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).default(30),
  /**
   * Claims a ticketing or refund job may have (runs that failed, or whose process died or lost
   * the lease); the next claim gives it up: a ticketing fails with the debit reversed.
   */
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  /** How often each process reads the job queue without being woken (others' jobs, expired leases). */
  JOB_POLL_MS: z.coerce.number().int().min(10).default(1000),
  RATE_LIMIT_RPS: z.coerce.number().int().min(0).default(50),
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(100),
  WEBHOOK_RETRY_SCHEDULE: secondsList.default([0, 5, 300, 1800, 7200, 18000, 36000, 36000]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(5000),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  /** When set, GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** How often buffered usage counters are written to the database. */
  USAGE_FLUSH_MS: z.coerce.number().int().min(10).default(2000),
  /**
   * The key supplier access tokens are encrypted with (AES-256-GCM): 32 bytes in base64. Unset:
   * supplier connections are refused (503 `supplier_secrets_unset`).
   */
  SUPPLIER_SECRETS_KEY: z
    .string()
    .refine((value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, "base64").length === 32, "must be 32 bytes in base64 (e.g. openssl rand -base64 32)")
    .optional(),
  /**
   * Where suppliers reach this service (https://api.example.com): the address a connection's
   * webhook is created with at its supplier (POST /v1/supplier_connections/:id/actions/register_webhook).
   * Unset: webhooks are created at the supplier by hand (503 `public_url_unset`).
   */
  PUBLIC_URL: z.string().url().optional(),
  /** Duffel's API address; tests point it at a local fake. */
  DUFFEL_API_URL: z.string().url().default("https://api.duffel.com"),
  /** The longest one call to Duffel may take (a search is bounded by its own supplier_timeout instead). */
  DUFFEL_TIMEOUT_MS: z.coerce.number().int().min(100).default(30000),
  /** The secret Duffel signs its webhooks with (given when the webhook is created at Duffel); unset: /suppliers/duffel/webhooks answers 503. */
  DUFFEL_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** How often (ms) a batch of Duffel's ticketed orders is asked for airline-initiated changes, for connections whose webhooks do not reach us; 0: never. */
  DUFFEL_CHANGES_POLL_MS: z.coerce.number().int().min(0).default(600_000),
  /**
   * TEST ONLY, unset in production: stops every request that reaches the named point (a crash
   * window) after printing a marker line on stdout, so a test can SIGKILL the process there
   * (src/test-pause.ts). `after_supplier_hold` or `after_cancel_commit`.
   */
  AEROGATE_TEST_PAUSE_AT: z.enum(PAUSE_POINTS).optional(),
  /**
   * TEST ONLY, unset in production: connectors written for the tests to register beside the
   * product's suppliers, comma-separated (`scripted`: src/connectors/scripted/, which the tests
   * steer). An unknown name is an error.
   */
  AEROGATE_TEST_CONNECTORS: z
    .string()
    .default("")
    .transform((value) => value.split(",").map((name) => name.trim()).filter((name) => name.length > 0)),
});

export type Config = z.infer<typeof configSchema>;

/**
 * Parses the environment into a typed config. A bad value throws one error that names every
 * offending variable, so a misconfigured deployment stops at start instead of misbehaving later.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
