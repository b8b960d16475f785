import type { RateLimitVerdict } from "./rate-limiter";

/**
 * Writes the RateLimit-* headers (IETF draft) for a verdict through `set`, plus Retry-After on a
 * refusal. Numbers as they are (HTTP writes them as text): this runs on every request.
 */
export function writeRateLimitHeaders(verdict: RateLimitVerdict, set: (name: string, value: number) => void): void {
  set("ratelimit-limit", verdict.limit);
  set("ratelimit-remaining", verdict.remaining);
  set("ratelimit-reset", verdict.resetSeconds);
  if (!verdict.allowed) set("retry-after", verdict.retryAfterSeconds);
}
