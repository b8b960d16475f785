import SqliteDriver, { type Database as SqliteConnection } from "better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";

/**
 * Exclusive use of the one better-sqlite3 connection a process shares between all its requests.
 *
 * A Prisma transaction on that connection spans awaits. Without a gate, any statement another
 * request sends meanwhile runs inside that transaction and is committed or rolled back with it,
 * which is how money could depend on luck. The adapter's own lock covers only the start of a
 * transaction; this gate covers every statement: a transaction holds it from BEGIN to its end,
 * and a statement outside a transaction runs at once when the gate is free, else waits its turn
 * (first come, first served).
 */
export class SqliteGate {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** Resolves once the caller has the connection to itself; call the returned function to hand it on. */
  acquire(): Promise<() => void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => this.#waiting.push(() => resolve(this.#releaser())));
  }

  /**
   * Runs synchronous statements (`work`) when no transaction holds the connection: at once, in
   * the caller's turn of the event loop, when the gate is free.
   */
  run<T>(work: () => T): Promise<Awaited<T>> {
    if (!this.#held) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.acquire().then((release) => {
      try {
        return work();
      } finally {
        release();
      }
    }) as Promise<Awaited<T>>;
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#held = false;
    };
  }
}

/**
 * Wraps Prisma's better-sqlite3 adapter factory so every connection it makes (including one Prisma
 * reopens after `$disconnect()`) runs `pragmas`, gets a gate of its own, and is reported to
 * `onConnection` with it.
 */
export function gatedSqliteAdapterFactory(
  factory: SqlDriverAdapterFactory,
  pragmas: string,
  onConnection: (connection: SqliteConnection, gate: SqliteGate) => void,
): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = await factory.connect();
      await adapter.executeScript(pragmas);
      // The adapter keeps its better-sqlite3 handle in `client`; the gate needs it to end a
      // transaction that COMMIT left open, so a release that hides it must fail loudly.
      const connection = (adapter as unknown as { client?: unknown }).client;
      if (!(connection instanceof SqliteDriver)) throw new Error("the better-sqlite3 adapter no longer exposes its connection as `client`");
      const gate = new SqliteGate();
      onConnection(connection, gate);
      return gatedSqliteAdapter(adapter, connection, gate);
    },
  };
}

/**
 * Prisma's better-sqlite3 adapter with every statement behind `gate`. Its statements run
 * synchronously inside the adapter's calls, so running the call inside the gate runs the
 * statement there.
 */
function gatedSqliteAdapter(adapter: SqlDriverAdapter, connection: SqliteConnection, gate: SqliteGate): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => gate.run(() => adapter.queryRaw(query)),
    executeRaw: (query) => gate.run(() => adapter.executeRaw(query)),
    executeScript: (script) => gate.run(() => adapter.executeScript(script)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    startTransaction: async (isolationLevel) => {
      const release = await gate.acquire();
      try {
        return gatedTransaction(await adapter.startTransaction(isolationLevel), connection, release);
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

/**
 * A transaction that gives the gate back when it ends, and never leaves the connection inside
 * it. When COMMIT fails (SQLITE_BUSY, a deferred constraint) SQLite keeps the transaction open
 * and Prisma answers with `rollback()`, which on this adapter sends no ROLLBACK: every later
 * statement would then run inside the dead transaction and every later BEGIN fail.
 */
function gatedTransaction(transaction: Transaction, connection: SqliteConnection, release: () => void): Transaction {
  const end = async (finish: () => Promise<void>) => {
    try {
      await finish();
    } finally {
      try {
        if (connection.open && connection.inTransaction) connection.exec("ROLLBACK");
      } finally {
        release();
      }
    }
  };
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query) => transaction.queryRaw(query),
    executeRaw: (query) => transaction.executeRaw(query),
    commit: () => end(() => transaction.commit()),
    rollback: () => end(() => transaction.rollback()),
    createSavepoint: transaction.createSavepoint?.bind(transaction),
    rollbackToSavepoint: transaction.rollbackToSavepoint?.bind(transaction),
    releaseSavepoint: transaction.releaseSavepoint?.bind(transaction),
  };
}
