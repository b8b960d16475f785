/**
 * PostgreSQL URLs as libpq writes them, several hosts included:
 * `postgresql://user:secret@db1:5432,db2:5432/aerogate?target_session_attrs=read-write`, the form
 * pg_auto_failover's `pg_autoctl show uri` prints. `pg` parses one host only, so the hosts are
 * split here and each is given to `pg` as a URL of its own (primary-locator.ts finds the primary
 * among them). Nothing here ever puts the password in a message.
 */

export interface PostgresHost {
  host: string;
  port: number;
}

export interface PostgresUrl {
  hosts: PostgresHost[];
  database: string;
  /** The same URL naming `host` alone (credentials and the other parameters kept), for `pg`. */
  urlFor(host: PostgresHost): string;
}

const DEFAULT_PORT = 5432;
/** `scheme://[userinfo@]hosts[/database][?query][#fragment]`; the userinfo ends at the last `@` before the path. */
const SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/;
/** libpq's `target_session_attrs` values that mean the writable primary, the only kind this service can use. */
const PRIMARY_ATTRS = new Set(["read-write", "primary"]);

/** A URL that is not a PostgreSQL URL we can use; its message never holds the URL. */
export class PostgresUrlError extends Error {
  override name = "PostgresUrlError";
}

/** Parses `url` (one host or several); throws PostgresUrlError, naming no credential, when it cannot. */
export function parsePostgresUrl(url: string): PostgresUrl {
  const match = SHAPE.exec(url);
  if (!match) throw new PostgresUrlError("the database URL is not of the form postgresql://user:password@host:port[,host:port…]/database");
  const [, scheme, userinfo, hostList, path = "", query = ""] = match;
  const hosts = hostList!.split(",").map(parseHost);
  const database = safeDecode(path.slice(1)) ?? "";
  const params = new URLSearchParams(query.slice(1));
  const attrs = params.get("target_session_attrs");
  if (attrs !== null && !PRIMARY_ATTRS.has(attrs)) {
    throw new PostgresUrlError(`target_session_attrs=${attrs} is not supported: the service writes, so it connects to the primary (read-write)`);
  }
  // `pg` would pass an unknown parameter on to the server as a setting; the choice of host is ours.
  params.delete("target_session_attrs");
  const rest = params.size > 0 ? `?${params.toString()}` : "";
  const credentials = userinfo === undefined ? "" : `${userinfo}@`;
  return {
    hosts,
    database,
    urlFor: (host) => `${scheme}${credentials}${host.host.includes(":") ? `[${host.host}]` : host.host}:${host.port}${path}${rest}`,
  };
}

function parseHost(text: string): PostgresHost {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? plain;
  if (!match) throw new PostgresUrlError(`the database URL names a host that cannot be read (${text === "" ? "an empty host" : "check the host list"})`);
  const port = match[2] === undefined ? DEFAULT_PORT : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new PostgresUrlError(`the database URL names port ${match[2]}, which is not a port`);
  return { host: match[1]!, port };
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** `host:port`, IPv6 addresses in brackets. */
export function hostName(host: PostgresHost): string {
  return `${host.host.includes(":") ? `[${host.host}]` : host.host}:${host.port}`;
}

/**
 * The database a PostgreSQL URL names, for log lines, /readyz and messages: its hosts and its
 * name, never its user or password. A URL that cannot be read is named as such, not printed.
 */
export function describePostgres(url: string): string {
  try {
    const parsed = parsePostgresUrl(url);
    return `PostgreSQL at ${parsed.hosts.map(hostName).join(", ")}, database ${parsed.database || "(default)"}`;
  } catch {
    return "PostgreSQL at a URL that cannot be read";
  }
}
