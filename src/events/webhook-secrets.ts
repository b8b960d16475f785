import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** How long a rotated-out secret keeps signing deliveries, so receivers can switch without losing events. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A tenant's signing secrets as stored. */
export interface WebhookSecrets {
  webhookSecret: string | null;
  previousWebhookSecret: string | null;
  previousWebhookSecretExpiresAt: Date | null;
}

/** A new Standard Webhooks secret: `whsec_` + 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The secrets that sign a delivery at `at`: the current one, and the previous one during its overlap. */
export function signingSecrets(tenant: WebhookSecrets, at: Date): string[] {
  const previousActive = tenant.previousWebhookSecret !== null && tenant.previousWebhookSecretExpiresAt !== null && tenant.previousWebhookSecretExpiresAt > at;
  return [tenant.webhookSecret, previousActive ? tenant.previousWebhookSecret : null].filter((secret): secret is string => secret !== null);
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (the event's id, the same on every
 * retry), `webhook-timestamp` (seconds) and `webhook-signature`, one `v1,<base64>` per secret,
 * space-separated, each an HMAC-SHA256 of `id.timestamp.body`.
 */
export function signedHeaders(secrets: readonly string[], eventId: string, at: Date, body: string): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(" "),
  };
}
