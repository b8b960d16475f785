import type { FastifyInstance } from "fastify";
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { appError } from "../errors/app-error";

/**
 * Per-key rate limiting (interface §5.8): `rps` requests a second sustained, plus `burst` more
 * spread over ten seconds. Counted per process. A refusal is 429 with `Retry-After`, spelled
 * `rate_limit_exceeded` on Variant A paths and `RATE_LIMIT_EXCEEDED` on Variant B ones.
 */
export function registerRateLimit(app: FastifyInstance, rps: number, burst: number): void {
  if (rps === 0) return;
  const limiter = new BurstyRateLimiter(
    new RateLimiterMemory({ points: rps, duration: 1 }),
    new RateLimiterMemory({ keyPrefix: "burst", points: Math.max(burst, 1), duration: 10 }),
  );
  app.addHook("onRequest", async (request) => {
    const keyId = request.ctx?.principal.keyId;
    if (!keyId) return;
    try {
      await limiter.consume(keyId);
    } catch (refusal: unknown) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const code = request.routeOptions.config?.variant === "B" ? "RATE_LIMIT_EXCEEDED" : "rate_limit_exceeded";
      throw appError(code, { retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) });
    }
  });
}
