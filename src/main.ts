import { inspect } from "node:util";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { openDatabase } from "./db/database";
import { applyMigrations } from "./db/migrate";
import { DatabaseWaitExpired, waitForDatabase } from "./db/wait-for-database";
import { connectPubSub } from "./events/pubsub";
import { startWaitingServer, type WaitingServer } from "./http/waiting-server";
import { createLogger, withoutCredentials } from "./logger";

/** Always printed, whatever LOG_LEVEL: with PORT=0 it is how a supervisor learns the port. */
function announceListening(address: string): void {
  process.stdout.write(`Aerogate listening on ${address}\n`);
}

/** Composition root: config, database and migrations, services, HTTP + WebSocket, shutdown. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const log = createLogger(config.LOG_LEVEL);
  // A database not reachable yet is waited for, with /healthz and /readyz answering meanwhile.
  let waiting: WaitingServer | null = null;
  try {
    await waitForDatabase(config.DATABASE_URL, config.DATABASE_WAIT_SECONDS, log, async (wait) => {
      if (waiting) return waiting.update(wait);
      waiting = await startWaitingServer(config.PORT, config.HOST, wait);
      announceListening(waiting.address);
    });
  } catch (error) {
    if (!(error instanceof DatabaseWaitExpired)) throw error;
    log.fatal({ reason: error.message }, "database unreachable; giving up");
    console.error(`Aerogate failed to start: ${error.message}`);
    process.exit(1);
  }
  const db = await openDatabase(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  const { applied } = await applyMigrations(db);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const pubsub = await connectPubSub(config, db, log);
  const app = await buildApp(config, db, pubsub, log);

  if (!config.OWNER_API_KEY) {
    const ownerKey = await app.services.apiKeys.bootstrapOwnerKey();
    // Printed once, on the first start only: only its hash is stored.
    if (ownerKey) process.stdout.write(`\nOwner API key (shown once, store it now): ${ownerKey}\n\n`);
  }

  const waited = waiting as WaitingServer | null;
  if (waited) {
    // The app takes the port over from the waiting server, which was already announced.
    await app.http.ready();
    await waited.close();
    await app.http.listen({ port: waited.port, host: config.HOST });
  } else {
    announceListening(await app.http.listen({ port: config.PORT, host: config.HOST }));
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    await app.close();
    await pubsub.close();
    await db.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  // An error may quote the database URL it was given (Node's "Invalid URL" holds it whole).
  console.error(`Aerogate failed to start: ${withoutCredentials(inspect(error))}`);
  process.exit(1);
});
