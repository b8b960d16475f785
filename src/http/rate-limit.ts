import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { appError } from "../errors/app-error";
import { writeRateLimitHeaders } from "../rate-limits/headers";
import type { RateLimiter, RateLimitVerdict } from "../rate-limits/rate-limiter";

/**
 * Per-key rate limiting (docs/authentication.md#rate-limits): every authenticated request takes one token from its
 * key's bucket before anything else runs; a GraphQL operation takes the rest of its cost once
 * it is known (graphql/operation-limits.ts). Every such answer carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset; a refusal is 429 with Retry-After, spelled
 * `rate_limit_exceeded` on Variant A paths and GraphQL, `RATE_LIMIT_EXCEEDED` on Variant B ones.
 */
export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter | null): void {
  if (!limiter) return;
  // Callback style, and no promise when the verdict is known at once: the hook runs on every request.
  app.addHook("onRequest", (request, reply, done) => {
    const keyId = request.ctx?.principal.keyId;
    if (!keyId) return done();
    const verdict = limiter.take(keyId, 1);
    if (verdict instanceof Promise) verdict.then((settled) => answer(request, reply, settled, done), done);
    else answer(request, reply, verdict, done);
  });
}

function answer(request: FastifyRequest, reply: FastifyReply, verdict: RateLimitVerdict, done: (error?: Error) => void): void {
  writeRateLimitHeaders(verdict, (name, value) => reply.header(name, value));
  if (verdict.allowed) return done();
  const code = request.routeOptions.config?.variant === "B" ? "RATE_LIMIT_EXCEEDED" : "rate_limit_exceeded";
  done(appError(code, { retryAfterSeconds: verdict.retryAfterSeconds }));
}
