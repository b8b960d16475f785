import type { RequestContext } from "../context/request-context";
import { appError } from "../errors/app-error";
import { tokensForCost } from "../rate-limits/cost-tokens";

/**
 * A REST route whose answer is more work than a request (fare calendars, destination ideas:
 * search/calendar-work.ts) takes the rest of its cost in rate-limit tokens before doing it, as a
 * GraphQL operation does (the first token was taken on arrival: http/rate-limit.ts). 429
 * `rate_limit_exceeded` with Retry-After when the key's bucket cannot give them; nothing is done.
 */
export async function chargeCost(ctx: RequestContext, cost: number): Promise<void> {
  const limiter = ctx.services.rateLimiter;
  if (!limiter) return;
  // A bucket's worth at most, as for a GraphQL operation: any request passes when the bucket is full.
  const tokens = Math.min(tokensForCost(cost), limiter.capacity) - 1;
  if (tokens <= 0) return;
  const verdict = await limiter.take(ctx.principal.keyId, tokens);
  if (!verdict.allowed) throw appError("rate_limit_exceeded", { retryAfterSeconds: verdict.retryAfterSeconds, reason: `This request costs ${tokens + 1} rate-limit tokens (its work: ${cost} cost points); the key's bucket holds ${verdict.remaining}.` });
}
