import type { FastifyInstance } from "fastify";
import { appError } from "../errors/app-error";
import { rateLimitHeaders } from "../rate-limits/headers";
import type { RateLimiter } from "../rate-limits/rate-limiter";

/**
 * Per-key rate limiting (interface §5.8): every authenticated request takes one token from its
 * key's bucket before anything else runs; a GraphQL operation takes the rest of its cost once
 * it is known (graphql/operation-limits.ts). Every such answer carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset; a refusal is 429 with Retry-After, spelled
 * `rate_limit_exceeded` on Variant A paths and GraphQL, `RATE_LIMIT_EXCEEDED` on Variant B ones.
 */
export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter | null): void {
  if (!limiter) return;
  app.addHook("onRequest", async (request, reply) => {
    const keyId = request.ctx?.principal.keyId;
    if (!keyId) return;
    const verdict = await limiter.take(keyId, 1);
    for (const [name, value] of rateLimitHeaders(verdict)) reply.header(name, value);
    if (verdict.allowed) return;
    const code = request.routeOptions.config?.variant === "B" ? "RATE_LIMIT_EXCEEDED" : "rate_limit_exceeded";
    throw appError(code, { retryAfterSeconds: verdict.retryAfterSeconds });
  });
}
