/**
 * `npm run test:pgbouncer -- <files>`: the PostgreSQL suites through PgBouncer in transaction
 * pooling. Starts Debian's pgbouncer in front of TEST_DATABASE_URL's server (test/helpers/pgbouncer.ts),
 * then runs `npm run test:pg` with TEST_DATABASE_URL pointing at the bouncer and
 * TEST_DATABASE_LISTEN_URL at the server itself (each process's LISTEN connection goes there,
 * as DATABASE_LISTEN_URL says in production), and stops the bouncer after.
 *
 *   TEST_DATABASE_URL=postgresql://aerogate:aerogate@127.0.0.1:5432/postgres npm run test:pgbouncer -- test/postgres/
 */
import { spawn } from "node:child_process";
import { startPgBouncer } from "../test/helpers/pgbouncer";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl || !/^postgres(ql)?:\/\//.test(serverUrl)) {
  console.error("test:pgbouncer: TEST_DATABASE_URL must name the PostgreSQL server (postgresql://…) PgBouncer goes in front of");
  process.exit(2);
}
const bouncer = await startPgBouncer(serverUrl);
console.log(`test:pgbouncer: PgBouncer (transaction pooling) on 127.0.0.1:${bouncer.port} in front of ${new URL(serverUrl).host}`);
const child = spawn("npm", ["run", "test:pg", "--", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_URL: bouncer.via(serverUrl), TEST_DATABASE_LISTEN_URL: serverUrl },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => child.once("exit", (exit, signal) => resolve(exit ?? (signal ? 1 : 0))));
// A notification reaching a server connection no client holds means a LISTEN went through the
// pooler (it must not: DATABASE_LISTEN_URL); errors sent to unlinked connections are the suites'
// databases dropped under the bouncer's idle connections.
const strayNotifications = bouncer.log().split("\n").filter((line) => line.includes("got packet 'A' from server when not linked"));
if (strayNotifications.length > 0) console.error(`test:pgbouncer: ${strayNotifications.length} notification(s) reached pooled connections:\n${strayNotifications.slice(0, 5).join("\n")}`);
await bouncer.stop();
process.exit(code !== 0 ? code : strayNotifications.length > 0 ? 1 : 0);
