import type { Database as SqliteConnection, Statement } from "better-sqlite3";

const cache = new WeakMap<SqliteConnection, Map<string, Statement>>();

/** The connection's prepared statement for `sql`, prepared once and kept with the connection. */
export function prepared(connection: SqliteConnection, sql: string): Statement {
  let statements = cache.get(connection);
  if (!statements) cache.set(connection, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = connection.prepare(sql)));
  return statement;
}
