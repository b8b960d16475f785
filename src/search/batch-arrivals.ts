import type { PubSub } from "../events/pubsub";

/** What a read of a batch offer request waits on: the word that one of its batches arrived. */
export interface ArrivalWatch {
  /** Resolves when a batch arrived since the watch began or since the last call, or after `timeoutMs`. */
  next(timeoutMs: number): Promise<void>;
  close(): void;
}

/**
 * The word that a batch offer request's batch arrived, from whichever process ran its search to
 * every process (PubSub: LISTEN/NOTIFY on PostgreSQL), so a read waiting in any process answers
 * as soon as the batch is stored rather than at its next look.
 */
export class BatchArrivals {
  readonly #watches = new Map<string, Set<() => void>>();

  constructor(private readonly pubsub: PubSub) {
    pubsub.subscribe("batches", (payload) => {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id === "string") for (const wake of this.#watches.get(id) ?? []) wake();
    });
  }

  /** Tells every process that a batch of request `id` is stored. */
  announce(id: string): Promise<void> {
    return this.pubsub.publish("batches", { id });
  }

  /** Wakes every waiting read (the process is stopping: they answer with what has arrived). */
  wakeAll(): void {
    for (const watches of this.#watches.values()) for (const wake of watches) wake();
  }

  /** Starts watching request `id`: an arrival told from now on is not missed, even between two waits. */
  watch(id: string): ArrivalWatch {
    let arrived = false;
    let wake: (() => void) | null = null;
    const onArrival = () => {
      arrived = true;
      wake?.();
    };
    const watches = this.#watches.get(id) ?? new Set();
    watches.add(onArrival);
    this.#watches.set(id, watches);
    return {
      next: (timeoutMs) =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            wake = null;
            arrived = false;
            resolve();
          };
          const timer = setTimeout(done, Math.max(0, timeoutMs));
          if (arrived) done();
          else wake = done;
        }),
      close: () => {
        watches.delete(onArrival);
        if (watches.size === 0 && this.#watches.get(id) === watches) this.#watches.delete(id);
      },
    };
  }
}
