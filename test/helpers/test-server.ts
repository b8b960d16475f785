import type { AddressInfo } from "node:net";
import { buildApp, type App } from "../../src/app";
import { loadConfig } from "../../src/config";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { openDatabase, type Database } from "../../src/db/database";
import { applyMigrations } from "../../src/db/migrate";
import { connectPubSub } from "../../src/events/pubsub";
import { createLogger } from "../../src/logger";
import { createTestDatabase, listenUrlFor, type TestDatabase } from "./test-database";

export interface TestServer {
  /** e.g. http://127.0.0.1:54321 */
  url: string;
  /** e.g. ws://127.0.0.1:54321/graphql */
  wsUrl: string;
  ownerKey: string;
  app: App;
  db: Database;
  provider: "sqlite" | "postgresql";
  /**
   * Runs `work` and returns the SQL statements this server's Prisma client sent meanwhile (all
   * of them, including any background work of the server in that window). One at a time.
   */
  recordQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: string[] }>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment for loadConfig (e.g. RATE_LIMIT_RPS). */
  env?: Record<string, string>;
  /** Share an existing database (a second process on the same PostgreSQL), instead of a fresh one. */
  database?: TestDatabase;
  ownerKey?: string;
}

/**
 * The real server, as `npm start` builds it, listening on a free port of 127.0.0.1 over its own
 * fresh database. Tests talk to it over HTTP and WebSocket like any client.
 */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const listenUrl = listenUrlFor(database.url);
  const ownerKey = options.ownerKey ?? generateSecret("owner");
  const config = loadConfig({
    DATABASE_URL: database.url,
    ...(listenUrl ? { DATABASE_LISTEN_URL: listenUrl } : {}),
    OWNER_API_KEY: ownerKey,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    RATE_LIMIT_RPS: "0",
    // The low-cost supplier answers at once unless a suite asks for its latency.
    SUPPLIER_LCC_LATENCY_MS: "0",
    ...options.env,
  });
  const log = createLogger(config.LOG_LEVEL);
  let recording: string[] | null = null;
  const db = await openDatabase(config.DATABASE_URL, { onQuery: (sql) => recording?.push(sql), poolSize: config.DATABASE_POOL_SIZE });
  await applyMigrations(db);
  const pubsub = await connectPubSub(config, db, log);
  const app = await buildApp(config, db, pubsub, log);
  await app.http.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.http.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    ownerKey,
    app,
    db,
    provider: database.provider,
    async recordQueries(work) {
      if (recording) throw new Error("recordQueries: already recording");
      const queries: string[] = [];
      recording = queries;
      try {
        return { result: await work(), queries };
      } finally {
        recording = null;
      }
    },
    async close() {
      await app.close();
      await pubsub.close();
      await db.close();
      if (!options.database) await database.drop();
    },
  };
}
