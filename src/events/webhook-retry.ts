/**
 * When a delivery's next attempt is due after a failed one, or null when the schedule is spent.
 * `schedule` lists the seconds before each attempt (WEBHOOK_RETRY_SCHEDULE: `0,1,1,1` is four
 * attempts); `attemptsMade` counts this schedule's attempts, the failed one included. A
 * receiver's `Retry-After` can only push the attempt later, never earlier.
 */
export function nextAttemptAt(schedule: readonly number[], attemptsMade: number, failedAt: Date, retryAfterMs: number | null): Date | null {
  if (attemptsMade >= schedule.length) return null;
  const delayMs = Math.max(schedule[attemptsMade]! * 1000, retryAfterMs ?? 0);
  return new Date(failedAt.getTime() + delayMs);
}

/** The longest wait a receiver's `Retry-After` can ask for: beyond it, a day is waited. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A `Retry-After` header (seconds, or an HTTP date) as milliseconds from `now`, at most a day;
 * null when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now.getTime();
  return Number.isNaN(ms) ? null : Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}
