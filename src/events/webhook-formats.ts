import type { WebhookEventType } from "./webhook-events";

/** Our own deliveries' format: the event as stored, signed with Standard Webhooks' headers (webhook-secrets.ts). */
export const STANDARD_FORMAT = "standard";

/**
 * Another shape and signature for an endpoint's deliveries (WebhookEndpoint.format): a transport
 * that imitates another provider's API (src/compat/) registers its provider's, so receivers
 * written for that provider read and verify ours unchanged. The events are the same.
 */
export interface WebhookDeliveryFormat {
  /** Stored in WebhookEndpoint.format. */
  name: string;
  /** The body an endpoint of this format receives for a stored event (`payload`), the same bytes on every attempt. */
  body(payload: string, type: WebhookEventType, liveMode: boolean): string;
  /** The headers that sign `body` with each of the endpoint's current secrets. */
  signedHeaders(secrets: readonly string[], at: Date, body: string): Record<string, string>;
}

/** The formats besides the standard one, by name; one registry per app, filled as its transports are mounted. */
export class WebhookFormats {
  readonly #formats = new Map<string, WebhookDeliveryFormat>();

  register(format: WebhookDeliveryFormat): void {
    if (format.name === STANDARD_FORMAT) throw new Error(`"${STANDARD_FORMAT}" is our own format`);
    this.#formats.set(format.name, format);
  }

  /** The format of that name; undefined for the standard one (or a format no transport registers any longer, delivered as ours). */
  get(name: string): WebhookDeliveryFormat | undefined {
    return this.#formats.get(name);
  }
}
