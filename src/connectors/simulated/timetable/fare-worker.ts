import { Worker } from "node:worker_threads";
import type { FareAnswer, FareAnswerMessage, FareTask } from "./fare-tasks";

/**
 * The simulated airline's fares computed on a worker thread (fare-worker.thread.ts): destination
 * ideas price an origin's every destination for a month, tens of thousands of fare searches and a
 * second or more of CPU, which on the server's event loop stalled every other request meanwhile
 * (a /healthz beside it waited 2 s). One thread for the process, started on first use, keeping
 * the process alive only while it has work; it answers one task at a time, in order. Should it die, the tasks
 * waiting on it fail and the next one starts another.
 */
export class FareWorker {
  #worker: Worker | null = null;
  #nextId = 0;
  readonly #waiting = new Map<number, { resolve: (answer: unknown) => void; reject: (error: Error) => void }>();

  run<T extends FareTask>(task: T): Promise<FareAnswer<T>> {
    const worker = this.#started();
    const id = this.#nextId++;
    // Held while it has work, so a process awaiting an answer stays up for it; let go when idle.
    if (this.#waiting.size === 0) worker.ref();
    return new Promise<FareAnswer<T>>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject });
      worker.postMessage({ id, task });
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./fare-worker.thread.mjs", import.meta.url));
    worker.on("message", (message: FareAnswerMessage) => {
      const waiting = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      if (this.#waiting.size === 0) worker.unref();
      if ("error" in message) waiting?.reject(new Error(`fare worker: ${message.error}`));
      else waiting?.resolve(message.answer);
    });
    const failed = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      for (const { reject } of this.#waiting.values()) reject(error);
      this.#waiting.clear();
    };
    worker.on("error", failed);
    worker.on("exit", (code) => failed(new Error(`fare worker exited with code ${code}`)));
    this.#worker = worker;
    return worker;
  }
}

let shared: FareWorker | undefined;

/** The process's fare worker: timetables are pure functions of carriers and airports, so every server in the process shares it. */
export function fareWorker(): FareWorker {
  shared ??= new FareWorker();
  return shared;
}
