import { z } from "zod";
import { appError } from "../errors/app-error";
import { isForbiddenAddress, literalAddress } from "./webhook-destinations";

/**
 * A webhook URL carries no credentials: a receiver knows deliveries are ours by their signature
 * (Standard Webhooks, the endpoint's webhook secret), and a user name or password in a URL ends
 * up wherever the URL is shown or logged. New ones are refused (`webhookUrlInput`); one stored
 * before that rule still receives its deliveries as stored, and is shown without them.
 */
export function holdsCredentials(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && (parsed.username !== "" || parsed.password !== "");
}

/** The URL as the API shows it: as stored, less any user name and password. */
export function shownWebhookUrl(url: string): string {
  if (!holdsCredentials(url)) return url;
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.toString();
}

/** A webhook URL as a tenant may give one (its webhook_url, an endpoint's url): http or https, no credentials. */
export const webhookUrlInput = z
  .url({ protocol: /^https?$/, message: "must be an http or https URL" })
  .max(2048)
  .refine((url) => !holdsCredentials(url), { message: "must not hold a user name or password: receivers check the webhook signature instead" })
  // The same rules, as the document states them: http or https, and no `@` before the path.
  .meta({ pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^/\\\\?#@\\u0000]+(?:[/\\\\?#][^\\u0000]*)?$" });

/**
 * Where a tenant may send its webhooks, checked when a URL is set (422 `invalid_field_value`
 * naming `field`):
 * - no private or loopback IP address, for every tenant, sandbox included (unless
 *   WEBHOOK_ALLOW_PRIVATE_NETWORKS). A host name is checked on every delivery instead, on the
 *   address it resolves to (webhook-destinations.ts);
 * - a live tenant's URL is https: its events carry live orders. On a server that allows private
 *   networks (development), plain http stays open to a receiver on one (a private or loopback
 *   address, or `localhost`).
 */
export function refuseWebhookDestination(field: string, url: string, rules: { environment: "sandbox" | "live"; allowPrivateNetworks: boolean }): void {
  const target = new URL(url);
  const address = literalAddress(target);
  const onPrivateNetwork = target.hostname === "localhost" || (address !== null && isForbiddenAddress(address));
  if (!rules.allowPrivateNetworks && address !== null && isForbiddenAddress(address)) {
    throw appError("invalid_field_value", { field, message: `${field}: webhooks may not go to private or loopback addresses` });
  }
  if (rules.environment === "live" && target.protocol !== "https:" && !(rules.allowPrivateNetworks && onPrivateNetwork)) {
    throw appError("invalid_field_value", { field, message: `${field}: a live tenant's webhooks go to https URLs only` });
  }
}
