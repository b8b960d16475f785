/**
 * A fresh Idempotency-Key for one action the person takes: a double click, or a retry after a
 * lost answer, sends the same key, so the server does the action once.
 */
export function newIdempotencyKey(action: string): string {
  return `console-${action}-${crypto.randomUUID()}`;
}
