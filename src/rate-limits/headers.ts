import type { RateLimitVerdict } from "./rate-limiter";

/** The RateLimit-* headers (IETF draft) for a verdict, plus Retry-After on a refusal. */
export function rateLimitHeaders(verdict: RateLimitVerdict): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ["ratelimit-limit", String(verdict.limit)],
    ["ratelimit-remaining", String(verdict.remaining)],
    ["ratelimit-reset", String(verdict.resetSeconds)],
  ];
  if (!verdict.allowed) headers.push(["retry-after", String(verdict.retryAfterSeconds)]);
  return headers;
}
