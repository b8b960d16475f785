/**
 * Polls `check` until it returns a value, and returns it; after `deadlineMs` fails with
 * `describe()`'s account of what is still missing. For waiting on the server's background work
 * (a ticketing job) without a fixed sleep.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, describe: () => string, deadlineMs = 15_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${describe()} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
