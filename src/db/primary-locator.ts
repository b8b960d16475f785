import pg from "pg";
import { databaseFault, NoPrimaryError } from "./errors";
import { describePostgres, hostName, parsePostgresUrl, type PostgresHost, type PostgresUrl } from "./postgres-url";

/** A pooled connection, and the host it was opened to. */
interface Tracked {
  host: PostgresHost;
  client: pg.Client;
}

/**
 * Finds the writable primary among the hosts of a PostgreSQL URL and keeps every connection of
 * the process on it, as libpq's `target_session_attrs=read-write` does for one connection.
 *
 * `locate` asks every host at once, on connections of its own, `SELECT pg_is_in_recovery()`: the
 * host answering false is the primary (the current one when it still is, otherwise the first in
 * the URL's order). Until one answers so it throws NoPrimaryError, a database fault of kind
 * `unreachable`, so requests meanwhile get 503 and the availability's probe (which is `locate`)
 * tries again every quarter second. When the primary moves, connections still open to another
 * host are cut (their socket destroyed: the pool drops them as it drops any broken connection),
 * and every connection opened after goes to the new primary: `poolClient` is the `pg.Client` the
 * pool makes them with. One host works the same way, so a standby named by mistake is refused
 * (503) instead of failing each write.
 */
export class PrimaryLocator {
  readonly #url: PostgresUrl;
  #current: PostgresHost;
  readonly #open = new Set<Tracked>();
  #locating: Promise<void> | null = null;
  readonly #switchListeners: Array<(from: string, to: string) => void> = [];
  /** The database, for log lines: its hosts and name, no credentials. */
  readonly description: string;

  constructor(
    url: string,
    /** How long opening a connection may take before its host counts as unreachable. */
    private readonly connectTimeoutMs: number,
  ) {
    this.#url = parsePostgresUrl(url);
    this.#current = this.#url.hosts[0]!;
    this.description = describePostgres(url);
  }

  /** The host connections go to now. */
  get current(): string {
    return hostName(this.#current);
  }

  /** A single-host URL for the current primary, for a connection of its own (the LISTEN connection). */
  currentUrl(): string {
    return this.#url.urlFor(this.#current);
  }

  /** Called with `host:port` of the old and the new primary when it moves. */
  onSwitch(listener: (from: string, to: string) => void): void {
    this.#switchListeners.push(listener);
  }

  /** Finds the primary (see the class comment); concurrent calls share one search. */
  locate(): Promise<void> {
    this.#locating ??= this.#locate().finally(() => (this.#locating = null));
    return this.#locating;
  }

  /** The `pg.Client` class a pool makes its connections with: each opens to the primary as last located. */
  poolClient(): typeof pg.Client {
    const locator = this;
    return class PrimaryClient extends pg.Client {
      constructor(config?: string | pg.ClientConfig) {
        const host = locator.#current;
        super({ ...(typeof config === "string" ? {} : config), connectionString: locator.#url.urlFor(host) });
        const tracked: Tracked = { host, client: this };
        locator.#open.add(tracked);
        this.once("end", () => locator.#open.delete(tracked));
      }
    };
  }

  async #locate(): Promise<void> {
    const answers = await Promise.all(this.#url.hosts.map(async (host) => ({ host, answer: await this.#ask(host) })));
    const primaries = answers.filter(({ answer }) => answer === "primary").map(({ host }) => host);
    const found = primaries.find((host) => host === this.#current) ?? primaries[0];
    if (found) return this.#moveTo(found);
    // A wrong password or a missing database is the setting's fault, not an outage: said as it is.
    const refusal = answers.find(({ answer }) => answer instanceof Error && !databaseFault(answer));
    if (refusal) throw refusal.answer;
    const reasons = answers.map(({ answer }) => (answer === "standby" ? "a standby (in recovery), not the primary" : (databaseFault(answer)?.reason ?? "failed")));
    throw new NoPrimaryError(answers.length === 1 ? reasons[0]! : answers.map(({ host }, index) => `${hostName(host)}: ${reasons[index]}`).join("; "));
  }

  async #ask(host: PostgresHost): Promise<"primary" | "standby" | Error> {
    const client = new pg.Client({ connectionString: this.#url.urlFor(host), connectionTimeoutMillis: this.connectTimeoutMs, query_timeout: this.connectTimeoutMs });
    // A connection lost after the answer must not be an unhandled error.
    client.on("error", () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby");
      return rows[0]?.standby ? "standby" : "primary";
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  #moveTo(host: PostgresHost): void {
    if (host === this.#current) return;
    const from = this.current;
    this.#current = host;
    for (const tracked of this.#open) {
      // The pool sees a broken connection and drops it, as when a server goes away.
      if (tracked.host !== host) (tracked.client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }
    for (const listener of this.#switchListeners) listener(from, this.current);
  }
}
