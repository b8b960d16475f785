import { newId } from "../ids";
import { ORDER_EVENT_TYPES, type OrderEventType } from "./order-events";
import { WALLET_EVENT_TYPES, type WalletEventType } from "./wallet-events";

/**
 * A `ping`: an event sent to one webhook endpoint when its tenant asks (to check a receiver), and
 * to no other. It reports no change, belongs to no order, and is signed, delivered, retried and
 * logged as every event is.
 */
export const PING = "ping";

/** Every event a change emits: the orders' and the wallets'. An endpoint's `enabled_events` names some of them. */
export const CHANGE_EVENT_TYPES = [...ORDER_EVENT_TYPES, ...WALLET_EVENT_TYPES] as const;
export type ChangeEventType = OrderEventType | WalletEventType;

/** Every event type a webhook carries: the changes' events, and `ping`. */
export const WEBHOOK_EVENT_TYPES = [...CHANGE_EVENT_TYPES, PING] as const;
export type WebhookEventType = ChangeEventType | typeof PING;

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** A ping as the outbox stores it; `payload` is the webhook body, byte for byte. */
export interface PingEvent {
  id: string;
  tenantId: string;
  /** The one endpoint it goes to. */
  endpointId: string;
  type: typeof PING;
  createdAt: Date;
  payload: string;
}

/** The ping to endpoint `endpointId` at `at`: `{ id, event: "ping", created_at, data: { endpoint_id } }`. */
export function pingEvent(tenantId: string, endpointId: string, at: Date): PingEvent {
  const id = newId("evt", at.getTime());
  const payload = JSON.stringify({ id, event: PING, created_at: at.toISOString(), data: { endpoint_id: endpointId } });
  return { id, tenantId, endpointId, type: PING, createdAt: at, payload };
}
