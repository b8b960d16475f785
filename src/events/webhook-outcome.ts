import type { DeliveryOutcome } from "./webhook-delivery-queue";
import { nextAttemptAt, retryAfterMs } from "./webhook-retry";
import type { WebhookResponse } from "./webhook-sender";

/** HTTP 410 Gone: the receiver asks for no more deliveries, so its endpoint is switched off. */
const GONE = 410;

/** A delivery that cannot be attempted (its endpoint off or deleted, no URL or no secret): it fails without a request. */
export function undeliverable(reason: string): DeliveryOutcome {
  return { attempt: null, status: "failed", nextAttemptAt: null, lastStatusCode: null, lastError: reason, disableWebhooks: false };
}

/**
 * What an attempt made at `at`, and answered at `finishedAt`, means for its delivery: a 2xx
 * succeeds; 410 fails it and disables its endpoint; a refused destination fails it at
 * once (a retry would be refused too); anything else (another status, redirects included, a
 * timeout, a network error) is retried per `schedule` after `attemptsBefore + 1` attempts, no
 * sooner than the receiver's `Retry-After` counted from its answer, and fails once the schedule
 * is spent.
 */
export function attemptOutcome(
  response: Exclude<WebhookResponse, { outcome: "interrupted" }>,
  { at, finishedAt }: { at: Date; finishedAt: Date },
  attemptsBefore: number,
  schedule: readonly number[],
): DeliveryOutcome {
  const statusCode = response.outcome === "answered" ? response.statusCode : null;
  const attempt = { at, statusCode, durationMs: response.durationMs, error: response.outcome === "answered" ? null : response.error };
  const settle = (status: DeliveryOutcome["status"], lastError: string | null, next: Date | null = null, disableWebhooks = false): DeliveryOutcome => ({
    attempt,
    status,
    nextAttemptAt: next,
    lastStatusCode: statusCode,
    lastError,
    disableWebhooks,
  });
  if (response.outcome === "forbidden_destination") return settle("failed", response.error);
  if (response.outcome === "answered" && response.statusCode >= 200 && response.statusCode < 300) return settle("succeeded", null);
  if (response.outcome === "answered" && response.statusCode === GONE) return settle("failed", "the receiver answered 410 Gone: the endpoint is now disabled", null, true);
  const next = nextAttemptAt(schedule, attemptsBefore + 1, finishedAt, response.outcome === "answered" ? retryAfterMs(response.retryAfter, finishedAt) : null);
  return next ? settle("pending", failureText(response), next) : settle("failed", failureText(response));
}

function failureText(response: WebhookResponse): string {
  if (response.outcome !== "answered") return response.error;
  const redirect = response.statusCode >= 300 && response.statusCode < 400;
  return redirect ? `HTTP ${response.statusCode}: redirects are not followed` : `HTTP ${response.statusCode}`;
}
