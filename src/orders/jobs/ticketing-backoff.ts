/**
 * How long a ticketing the supplier has taken but not finished (paid, its tickets not yet issued,
 * or its order not yet confirmed) waits before it is asked again: half the time it has waited
 * since it was asked first, within [FIRST_READ_MS, LONGEST_WAIT_MS], so the reads thin out as
 * the wait grows (5 s, 7.5 s, 11 s, … then every 10 minutes). Past TICKETS_AWAITED_MS it is
 * asked no more.
 */
export const FIRST_READ_MS = 5_000;
export const LONGEST_WAIT_MS = 10 * 60_000;
export const TICKETS_AWAITED_MS = 72 * 3_600_000;

/** When to ask again, for a ticketing first asked at `firstAskedAt`; null once it has waited TICKETS_AWAITED_MS. */
export function nextTicketingRead(firstAskedAt: Date, now: Date): Date | null {
  const waited = Math.max(0, now.getTime() - firstAskedAt.getTime());
  if (waited >= TICKETS_AWAITED_MS) return null;
  return new Date(now.getTime() + Math.min(LONGEST_WAIT_MS, Math.max(FIRST_READ_MS, waited / 2)));
}
