import { buildApp } from "./app";
import { loadConfig } from "./config";
import { openDatabase } from "./db/database";
import { applyMigrations } from "./db/migrate";
import { LocalPubSub, PostgresPubSub, type PubSub } from "./events/pubsub";
import { createLogger } from "./logger";

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
  const db = await openDatabase(config.DATABASE_URL);
  const { applied } = await applyMigrations(db);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const pubsub: PubSub = db.provider === "postgresql" ? await PostgresPubSub.connect(config.DATABASE_URL, log) : new LocalPubSub();
  const app = await buildApp(config, db, pubsub, log);

  if (!config.OWNER_API_KEY) {
    const ownerKey = await app.services.apiKeys.bootstrapOwnerKey();
    // Printed once, on the first start only: only its hash is stored.
    if (ownerKey) process.stdout.write(`\nOwner API key (shown once, store it now): ${ownerKey}\n\n`);
  }

  const address = await app.http.listen({ port: config.PORT, host: config.HOST });
  // Always printed, whatever LOG_LEVEL: with PORT=0 it is how a supervisor learns the port.
  process.stdout.write(`Aerogate listening on ${address}\n`);

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
  console.error("Aerogate failed to start:", error);
  process.exit(1);
});
