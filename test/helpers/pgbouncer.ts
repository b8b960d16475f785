import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:net";
import { givePostgres, postgresOwnedDir } from "./postgres-servers";
import { freePort } from "./tcp-proxy";

/**
 * Debian's PgBouncer in transaction pooling, the way most deployments pool, in front of the
 * PostgreSQL server a URL names: every database on it is reachable through the bouncer under the
 * same name, as the same user and password. Run as `postgres` when we are root (PgBouncer refuses
 * root), with its files under the system's temporary folder, on a free port.
 */
export interface PgBouncer {
  readonly port: number;
  /** `serverUrl` with its host and port replaced by the bouncer's. */
  via(serverUrl: string): string;
  /** What PgBouncer logged (its warnings tell a client misusing a pooled connection). */
  log(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and user (`default_pool_size`). */
  poolSize?: number;
}

export async function startPgBouncer(serverUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const dir = postgresOwnedDir("aerogate-pgbouncer-");
  const port = await freePort();
  const files = { config: join(dir, "pgbouncer.ini"), users: join(dir, "userlist.txt"), log: join(dir, "pgbouncer.log") };
  writeFileSync(files.users, `"${user}" "${password}"\n`);
  writeFileSync(
    files.config,
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "pool_mode = transaction",
      "auth_type = scram-sha-256",
      `auth_file = ${files.users}`,
      `logfile = ${files.log}`,
      "max_client_conn = 500",
      `default_pool_size = ${options.poolSize ?? 20}`,
      "ignore_startup_parameters = extra_float_digits",
      "",
    ].join("\n"),
  );
  for (const file of [files.users, files.config]) givePostgres(file);
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  // Debian puts it in /usr/sbin, which a user's PATH may leave out.
  const binary = existsSync("/usr/sbin/pgbouncer") ? "/usr/sbin/pgbouncer" : "pgbouncer";
  const [command, args] = asRoot ? ["runuser", ["-u", "postgres", "--", binary, files.config]] : [binary, [files.config]];
  const child: ChildProcess = spawn(command, args, { cwd: "/", stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitForPort(port, child);
  return {
    port,
    via(url) {
      const through = new URL(url);
      through.hostname = "127.0.0.1";
      through.port = String(port);
      return through.toString();
    },
    log: () => readFileSync(files.log, "utf8"),
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once something accepts connections on `port`; fails if `child` exits first or after 30 s. */
async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode} before listening (is Debian's pgbouncer installed?)`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${port} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
