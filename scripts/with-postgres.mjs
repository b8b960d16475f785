#!/usr/bin/env node
/**
 * `npm run test:pg`: runs the given command (the integration suites) against PostgreSQL.
 *
 * Needs TEST_DATABASE_URL, a PostgreSQL server URL with a role allowed to CREATE DATABASE
 * (test/helpers/test-database.ts makes a fresh database per suite there and drops it after).
 * Fails at once, with a clear message, if it is unset, not a postgresql:// URL, or the server
 * does not answer — instead of silently running the suites on SQLite.
 *
 *   TEST_DATABASE_URL=postgresql://aerogate:aerogate@127.0.0.1:5432/postgres npm run test:pg
 */
import { spawn } from "node:child_process";
import pg from "pg";

function fail(message) {
  console.error(`test:pg: ${message}`);
  console.error("  e.g. TEST_DATABASE_URL=postgresql://aerogate:aerogate@127.0.0.1:5432/postgres npm run test:pg");
  process.exit(2);
}

const url = process.env.TEST_DATABASE_URL;
if (!url) fail("TEST_DATABASE_URL is not set; it must name a PostgreSQL server (role with CREATEDB).");
if (!/^postgres(ql)?:\/\//.test(url)) fail(`TEST_DATABASE_URL must be a postgresql:// URL, got "${url.split(":")[0]}:…".`);

const [command, ...args] = process.argv.slice(2);
if (!command) fail("no command given (usage: node scripts/with-postgres.mjs <command> [args…]).");

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
try {
  await client.connect();
  const { rows } = await client.query("SELECT current_setting('server_version') AS version, rolcreatedb OR rolsuper AS can_create FROM pg_roles WHERE rolname = current_user");
  if (!rows[0]?.can_create) fail("the TEST_DATABASE_URL role may not create databases (needs CREATEDB or SUPERUSER).");
  console.log(`test:pg: PostgreSQL ${rows[0].version} at ${new URL(url).host}`);
} catch (error) {
  fail(`cannot reach PostgreSQL at TEST_DATABASE_URL: ${error.message}`);
} finally {
  await client.end().catch(() => {});
}

const child = spawn(command, args, { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => fail(`could not start ${command}: ${error.message}`));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
