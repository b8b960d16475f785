/** The order events an endpoint can take (docs/webhooks.md#events), as its enabledEvents names them. */
export const ORDER_EVENT_TYPES = [
  "order.created",
  "order.ticketed",
  "order.failed",
  "order.cancelled",
  "order.refunded",
  "order.services_added",
  "order.changed",
  "order.airline_initiated_change_detected",
] as const;

/** In enabledEvents: every event type, those added later included. */
export const ALL_EVENTS = "*";

/** What an endpoint takes, as a person reads it. */
export function eventsShown(enabledEvents: readonly string[]): string {
  return enabledEvents.includes(ALL_EVENTS) ? "All events" : enabledEvents.join(", ");
}
