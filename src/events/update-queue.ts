/**
 * What one subscriber has yet to receive, as the async iterator a GraphQL subscription consumes.
 * Items are pending reads, handed out in the order they were pushed however their reads finish;
 * one that resolves to null (nothing to say after all) or that `isRepeat` of the last one handed
 * out is skipped. Pushed promises must not reject.
 *
 * Bounded: a consumer `capacity` items behind (a stalled socket) ends the iterator, dropping what
 * it held, instead of holding memory without bound; its client sees the subscription complete.
 * `return()` (the client completed, the socket closed) ends it too; `onEnd` runs once either way.
 */
export class UpdateQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: Array<Promise<T | null>> = [];
  private wakeConsumer: (() => void) | null = null;
  private last: T | null = null;
  private ended = false;

  constructor(
    private readonly capacity: number,
    private readonly onEnd: () => void,
    private readonly isRepeat: (next: T, last: T) => boolean = () => false,
  ) {}

  push(item: Promise<T | null>): void {
    if (this.ended) return;
    if (this.items.length >= this.capacity) {
      this.end();
      return;
    }
    this.items.push(item);
    this.wake();
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      const head = this.items.shift();
      if (head) {
        const value = await head;
        if (value === null || (this.last !== null && this.isRepeat(value, this.last))) continue;
        this.last = value;
        return { value, done: false };
      }
      if (this.ended) return { value: undefined, done: true };
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.end();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.items.length = 0;
    this.onEnd();
    this.wake();
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = null;
    wake?.();
  }
}
