import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const CHECKPOINT_INTERVAL_MS = 100;

/**
 * The thread's code, plain CommonJS so it runs the same under tsx, node and vitest. PASSIVE
 * checkpoints never wait for, nor block, a reader or the writer.
 */
const threadSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Driver = require(workerData.driver);
const db = new Driver(workerData.path, { fileMustExist: true });
const timer = setInterval(() => db.pragma("wal_checkpoint(PASSIVE)"), workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies SQLite's write-ahead log back into the database file from a thread of its own.
 *
 * SQLite's automatic checkpoint runs on whichever connection commits past 1,000 WAL pages, so
 * here on the event loop, in the middle of a request: it was half the cost of storing a
 * 50-offer search. SQLite's documentation suggests turning it off and checkpointing from a
 * separate thread instead, which this does every 100 ms with its own connection. If the
 * thread ever fails, `onFailure` lets the connection go back to checkpointing itself.
 */
export class SqliteCheckpointer {
  private failed = false;

  private constructor(
    private readonly worker: Worker,
    onFailure: (error: Error) => void,
  ) {
    worker.unref(); // never what keeps a process alive
    worker.once("error", (error) => {
      this.failed = true;
      onFailure(error);
    });
  }

  static start(path: string, onFailure: (error: Error) => void): SqliteCheckpointer {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(threadSource, { eval: true, workerData: { path, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
    return new SqliteCheckpointer(worker, onFailure);
  }

  /** False once the thread has failed. */
  get running(): boolean {
    return !this.failed;
  }

  /** Stops the thread and closes its connection. */
  async stop(): Promise<void> {
    if (this.failed) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.postMessage("stop");
    await exited;
  }
}
