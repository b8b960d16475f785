import type { Tenant, WebhookEndpoint as WebhookEndpointRow } from "../db/models";
import { STANDARD_FORMAT } from "./webhook-formats";
import { CHANGE_EVENT_TYPES, type ChangeEventType } from "./webhook-events";

/** Endpoints a tenant may have besides its default one (its webhook_url). */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** The places of a tenant's endpoints, "01" to "16" (WebhookEndpoint.slot). */
export const ENDPOINT_SLOTS: readonly string[] = Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, (_, index) => String(index + 1).padStart(2, "0"));

/** In `enabled_events`, every event type, those added later included. */
export const ALL_EVENTS = "*";

/** What an endpoint receives: every event, or the events named. */
export type EnabledEvents = [typeof ALL_EVENTS] | ChangeEventType[];

/** The event types an endpoint may name in `enabled_events`. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [ALL_EVENTS, ...CHANGE_EVENT_TYPES];

/** What the default endpoint says it is (its description, which cannot be changed). */
export const DEFAULT_ENDPOINT_DESCRIPTION = "The tenant's webhook_url (PATCH /v1/tenant): receives every event";

/** A webhook endpoint as the API shows it (never its stored secrets). */
export interface WebhookEndpoint {
  id: string;
  tenantId: string;
  /** As stored; shown without credentials (shownWebhookUrl). */
  url: string;
  enabledEvents: EnabledEvents;
  description: string | null;
  enabled: boolean;
  /** The tenant's own webhook_url, webhook_enabled and secret, shown as an endpoint. */
  isDefault: boolean;
  /** How its deliveries are shaped and signed; each surface shows only its own format's endpoints. */
  format: string;
  createdAt: Date;
  updatedAt: Date;
  /** The signing secret, only in the answer that made it (creation): shown once. */
  issuedSecret?: string;
}

/**
 * The id of a tenant's default endpoint: the tenant's id with the prefix `whe_`, the same in
 * every process and for every delivery made before endpoints existed.
 */
export function defaultEndpointId(tenantId: string): string {
  return `whe_${tenantId.slice(tenantId.indexOf("_") + 1)}`;
}

/** The tenant's default endpoint: its webhook_url, which receives every event; null while it has none. */
export function defaultEndpoint(tenant: Tenant): WebhookEndpoint | null {
  if (tenant.webhookUrl === null) return null;
  return {
    id: defaultEndpointId(tenant.id),
    tenantId: tenant.id,
    url: tenant.webhookUrl,
    enabledEvents: [ALL_EVENTS],
    description: DEFAULT_ENDPOINT_DESCRIPTION,
    enabled: tenant.webhookEnabled,
    isDefault: true,
    format: STANDARD_FORMAT,
    createdAt: tenant.createdAt,
    updatedAt: tenant.updatedAt,
  };
}

export function endpointFromRow(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    tenantId: row.tenantId,
    url: row.url,
    enabledEvents: JSON.parse(row.enabledEvents) as EnabledEvents,
    description: row.description,
    enabled: row.enabled,
    isDefault: false,
    format: row.format,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * `enabled_events` as stored: JSON text, each type in quotes, so the outbox finds a type in it
 * exactly by looking for `"order.ticketed"` (outbox.ts). `*` alone stands for every type.
 */
export function enabledEventsText(types: EnabledEvents): string {
  return JSON.stringify(types);
}

/** The text the outbox looks for in `enabledEvents` for an event of `type`. */
export function quotedEventType(type: string): string {
  return JSON.stringify(type);
}
