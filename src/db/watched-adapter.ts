import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type { DatabaseAvailability } from "./availability";

/**
 * Wraps a Prisma driver adapter factory so that every statement Prisma sends reports to
 * `availability`: a failure that is a database fault starts its episode (errors.ts), a write
 * that changed rows ends a full disk's, and while the database is known to be unreachable new
 * work (a statement outside a transaction, a new transaction) is refused at once instead of
 * waiting on the network. Statements of a transaction already begun, and its commit or
 * rollback, always go through, so a connection is never left inside a transaction.
 */
export function watchedAdapterFactory(factory: SqlDriverAdapterFactory, availability: DatabaseAvailability): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => watchedAdapter(await factory.connect(), availability),
  };
}

function watchedAdapter(adapter: SqlDriverAdapter, availability: DatabaseAvailability): SqlDriverAdapter {
  const reported = reporter(availability);
  const newWork = <T>(work: () => Promise<T>): Promise<T> => {
    try {
      availability.assertReachable();
    } catch (error) {
      return Promise.reject(error);
    }
    return reported(work);
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => newWork(() => adapter.queryRaw(query)),
    executeRaw: (query) => newWork(() => countedWrite(availability, adapter.executeRaw(query))),
    executeScript: (script) => newWork(() => adapter.executeScript(script)),
    startTransaction: (isolationLevel) => newWork(async () => watchedTransaction(await adapter.startTransaction(isolationLevel), availability)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
  };
}

function watchedTransaction(transaction: Transaction, availability: DatabaseAvailability): Transaction {
  const reported = reporter(availability);
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query: SqlQuery) => reported(() => transaction.queryRaw(query)),
    executeRaw: (query: SqlQuery) => reported(() => countedWrite(availability, transaction.executeRaw(query))),
    commit: () => reported(() => transaction.commit()),
    rollback: () => reported(() => transaction.rollback()),
    createSavepoint: transaction.createSavepoint?.bind(transaction),
    rollbackToSavepoint: transaction.rollbackToSavepoint?.bind(transaction),
    releaseSavepoint: transaction.releaseSavepoint?.bind(transaction),
  };
}

/** Runs `work` and tells `availability` about its failure before passing it on. */
function reporter(availability: DatabaseAvailability) {
  return async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      availability.notice(error);
      throw error;
    }
  };
}

async function countedWrite(availability: DatabaseAvailability, write: Promise<number>): Promise<number> {
  const changed = await write;
  if (changed > 0) availability.noticeWrite();
  return changed;
}
