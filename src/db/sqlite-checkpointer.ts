import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const CHECKPOINT_INTERVAL_MS = 100;
/** 16 MB of 4 KB pages: past this the writer's connection is asked to let the WAL start over. */
const WAL_RESTART_FRAMES = 4096;

/**
 * The thread's code, plain CommonJS so it runs the same under tsx, node and vitest. PASSIVE
 * checkpoints never wait for, nor block, a reader or the writer.
 */
const threadSource = `
const { parentPort, workerData } = require("node:worker_threads");
const Driver = require(workerData.driver);
const db = new Driver(workerData.path, { fileMustExist: true });
const timer = setInterval(() => {
  let log;
  try {
    [{ log }] = db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    // A full disk: the file cannot take the log's pages now; the next checkpoint tries again.
    if (String(error && error.code).startsWith("SQLITE_FULL")) return;
    throw error;
  }
  if (log >= workerData.restartFrames) parentPort.postMessage(log);
}, workerData.intervalMs);
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
 * separate thread instead, which this does every 100 ms with its own connection. A full disk
 * (SQLITE_FULL) only skips a checkpoint; if the thread ever fails otherwise, `onFailure` lets the
 * connection go back to checkpointing itself.
 *
 * The WAL only starts over from its beginning when a write begins after a checkpoint that
 * copied every frame, which a thread racing a busy writer never manages: the file grew without
 * bound (3 GB after 12,000 searches). So once the WAL holds `WAL_RESTART_FRAMES`, `onLongWal`
 * asks the writer's connection to checkpoint the last few frames itself, between two writes.
 */
export class SqliteCheckpointer {
  private failed = false;

  private constructor(
    private readonly worker: Worker,
    onFailure: (error: Error) => void,
    onLongWal: () => void,
  ) {
    worker.unref(); // never what keeps a process alive
    worker.on("message", onLongWal);
    worker.once("error", (error) => {
      this.failed = true;
      onFailure(error);
    });
  }

  static start(path: string, events: { onFailure: (error: Error) => void; onLongWal: () => void }): SqliteCheckpointer {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const workerData = { path, driver, intervalMs: CHECKPOINT_INTERVAL_MS, restartFrames: WAL_RESTART_FRAMES };
    return new SqliteCheckpointer(new Worker(threadSource, { eval: true, workerData }), events.onFailure, events.onLongWal);
  }

  /** False once the thread has failed. */
  get running(): boolean {
    return !this.failed;
  }

  /** Stops the thread and closes its connection. */
  async stop(): Promise<void> {
    if (this.failed) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    // Referenced while stopping: otherwise a process with nothing else to do exits before the
    // thread's exit arrives, leaving this promise (and a caller's shutdown) unsettled.
    this.worker.ref();
    this.worker.postMessage("stop");
    await exited;
  }
}
