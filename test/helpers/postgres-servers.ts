import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { eventually } from "./eventually";
import { freePort } from "./tcp-proxy";

/**
 * PostgreSQL servers of a suite's own (the high-availability suites, `npm run test:ha`): a primary
 * and its streaming replica, on free ports of 127.0.0.1 and data directories under the system's
 * temporary folder, which the suite may crash and promote without touching anyone else's server.
 * Built from Debian's PostgreSQL binaries (`PG_BIN`, or the newest /usr/lib/postgresql/N/bin);
 * run as the `postgres` user when the suite runs as root (initdb refuses root).
 */

const run = promisify(execFile);

/** The role the service connects as, with a password (client connections need it: scram-sha-256). */
export const HA_USER = "aerogate";

export interface PostgresServer {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** `postgresql://aerogate:<password>@127.0.0.1:<port>/<database>`. */
  url(database?: string): string;
  /** Runs one statement as the superuser on `database` (postgres by default). */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(sql: string, database?: string): Promise<Row[]>;
  /** The server crashes: every process stops at once, no shutdown checkpoint (`pg_ctl stop -m immediate`). */
  crash(): Promise<void>;
  /** A standby becomes the primary (`pg_ctl promote`, waiting until it takes writes). */
  promote(): Promise<void>;
  stop(): Promise<void>;
}

export interface PostgresPair {
  primary: PostgresServer;
  replica: PostgresServer;
  /** The service's password, which must never be seen in a log. */
  password: string;
  /** Both hosts, primary first, as a multi-host URL (libpq's form). */
  multiHostUrl(database: string): string;
  /** Stops both servers and removes their data. */
  remove(): Promise<void>;
}

const binDir = (): string => {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b)) : [];
  if (versions.length === 0) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql), and PG_BIN is unset");
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`;
};

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Runs a PostgreSQL binary, as `postgres` when we are root. */
export async function asPostgres(command: string, args: string[], timeoutMs = 120_000): Promise<string> {
  const [file, fullArgs] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  // cwd /: runuser's user may not be allowed into the suite's working directory.
  const { stdout } = await run(file, fullArgs, { cwd: "/", timeout: timeoutMs });
  return stdout;
}

/** A folder (or file) the postgres user owns when we are root, so a server or PgBouncer run as it may use it. */
export function givePostgres(path: string): void {
  if (!asRoot) return;
  const id = (flag: string) => Number(String(execFileSync("id", [flag, "postgres"])).trim());
  chownSync(path, id("-u"), id("-g"));
}

/** A new folder under the system's temporary folder, for `postgres`. */
export function postgresOwnedDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  givePostgres(dir);
  return dir;
}

/** Settings for a small, quick server; fsync off: the suites crash processes, not machines. */
const SETTINGS = (port: number) => `
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = ''
max_connections = 200
shared_buffers = 32MB
fsync = off
wal_level = replica
max_wal_senders = 5
hot_standby = on
wal_keep_size = 256MB
log_min_messages = warning
logging_collector = off
`;

function server(name: string, port: number, dataDir: string, password: string): PostgresServer {
  const pgCtl = join(binDir(), "pg_ctl");
  return {
    name,
    port,
    dataDir,
    url: (database = "postgres") => `postgresql://${HA_USER}:${password}@127.0.0.1:${port}/${database}`,
    async query<Row extends pg.QueryResultRow>(sql: string, database = "postgres") {
      const client = new pg.Client({ host: "127.0.0.1", port, user: HA_USER, password, database, connectionTimeoutMillis: 5000 });
      client.on("error", () => undefined);
      await client.connect();
      try {
        return (await client.query<Row>(sql)).rows;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    crash: async () => void (await asPostgres(pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w"])),
    promote: async () => void (await asPostgres(pgCtl, ["promote", "-D", dataDir, "-w"])),
    stop: async () => void (await asPostgres(pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w"]).catch(() => undefined)),
  };
}

async function start(dataDir: string): Promise<void> {
  await asPostgres(join(binDir(), "pg_ctl"), ["start", "-D", dataDir, "-w", "-t", "60", "-l", join(dataDir, "server.log")]);
}

/**
 * A primary and a streaming replica of it. With `synchronous`, the primary waits for the replica
 * to have each commit before it answers (`synchronous_standby_names`), so a failover loses no
 * committed transaction; the replica itself has no standby to wait for once promoted.
 */
export async function startPrimaryAndReplica(options: { synchronous: boolean }): Promise<PostgresPair> {
  const password = `pw-${randomBytes(9).toString("hex")}`;
  const root = postgresOwnedDir("aerogate-ha-");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primary = server("primary", primaryPort, join(root, "primary"), password);
  const replica = server("replica", replicaPort, join(root, "replica"), password);
  const remove = async () => {
    await replica.stop();
    await primary.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const [primaryDir, replicaDir] = [primary.dataDir, replica.dataDir];
    await asPostgres(join(binDir(), "initdb"), ["-D", primaryDir, "-U", "postgres", "-E", "UTF8", "--no-sync"]);
    // The replica copies this file. The superuser (the suite, replication) needs no password from 127.0.0.1; the service does.
    writeFileSync(
      join(primaryDir, "pg_hba.conf"),
      ["local all all trust", "host replication postgres 127.0.0.1/32 trust", "host all postgres 127.0.0.1/32 trust", `host all ${HA_USER} 127.0.0.1/32 scram-sha-256`, ""].join("\n"),
    );
    appendFileSync(join(primaryDir, "postgresql.conf"), SETTINGS(primaryPort));
    await start(primaryDir);
    const superuser = new pg.Client({ host: "127.0.0.1", port: primaryPort, user: "postgres", database: "postgres" });
    await superuser.connect();
    await superuser.query(`CREATE ROLE ${HA_USER} LOGIN SUPERUSER PASSWORD '${password}'`);
    await superuser.end();

    await asPostgres(join(binDir(), "pg_basebackup"), ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-X", "stream", "--checkpoint=fast", "--no-sync"]);
    // Later lines win: its own port, and its name on the primary.
    appendFileSync(join(replicaDir, "postgresql.conf"), `port = ${replicaPort}\nprimary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=replica'\n`);
    appendFileSync(join(replicaDir, "standby.signal"), "");
    await start(replicaDir);
    // Only now: a commit on a primary waiting for a standby not there yet would wait for ever. The
    // replica never has the setting (it copied the files before), so once promoted it waits for no one.
    if (options.synchronous) await primary.query("ALTER SYSTEM SET synchronous_standby_names = 'replica'").then(() => primary.query("SELECT pg_reload_conf()"));
    await eventually(
      async () => {
        const [row] = await primary.query<{ state: string; sync_state: string }>("SELECT state, sync_state FROM pg_stat_replication WHERE application_name = 'replica'");
        return row?.state === "streaming" && (!options.synchronous || row.sync_state === "sync") ? true : undefined;
      },
      () => "the replica is not streaming from the primary",
      60_000,
      100,
    );
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    primary,
    replica,
    password,
    multiHostUrl: (database) => `postgresql://${HA_USER}:${password}@127.0.0.1:${primaryPort},127.0.0.1:${replicaPort}/${database}?target_session_attrs=read-write`,
    remove,
  };
}
