import { z } from "zod";
import { appError } from "../errors/app-error";
import { parseInput } from "../validation/parse-input";
import { shownText } from "../validation/shown-text";
import { ALL_EVENTS, type EnabledEvents } from "./webhook-endpoint";
import { CHANGE_EVENT_TYPES, PING, type ChangeEventType } from "./webhook-events";
import { webhookUrlInput } from "./webhook-url";

/** Fields an endpoint shows but never changes: naming one in a PATCH is a 422, not a silent no-op. */
const IMMUTABLE_ENDPOINT_FIELDS = ["id", "secret", "is_default", "created_at", "updated_at"] as const;

/**
 * `enabled_events`: `["*"]` (every event, those added later included), or event types
 * (repeats are kept once). An unknown type is refused naming it; so is `ping`, which goes only
 * where it is sent, and `*` beside other types.
 */
const enabledEvents = z
  .array(z.string().max(100))
  .min(1, { message: `must name at least one event type, or "${ALL_EVENTS}" for every one` })
  .max(100)
  .superRefine((types, context) => {
    const unknown = types.find((type) => type !== ALL_EVENTS && !(CHANGE_EVENT_TYPES as readonly string[]).includes(type));
    if (unknown === PING) {
      context.addIssue({ code: "custom", message: `"${PING}" is sent only when asked for (POST /v1/webhook_endpoints/:id/actions/ping), to that endpoint alone` });
    } else if (unknown !== undefined) {
      context.addIssue({ code: "custom", message: `${JSON.stringify(unknown)} is not an event type: name some of ${CHANGE_EVENT_TYPES.join(", ")}, or "${ALL_EVENTS}"` });
    } else if (types.includes(ALL_EVENTS) && types.some((type) => type !== ALL_EVENTS)) {
      context.addIssue({ code: "custom", message: `"${ALL_EVENTS}" stands alone: it already takes every event type` });
    }
  })
  .meta({ oneOf: [{ items: { const: ALL_EVENTS } }, { items: { enum: [...CHANGE_EVENT_TYPES] } }] })
  .transform((types): EnabledEvents => (types.includes(ALL_EVENTS) ? [ALL_EVENTS] : ([...new Set(types)] as ChangeEventType[])));

/** What the tenant says an endpoint is for, as the console shows it: no hidden characters. */
const description = shownText({ max: 500 });

/** POST /v1/webhook_endpoints and Mutation.createWebhookEndpoint. */
export const createWebhookEndpointInput = z.strictObject({
  url: webhookUrlInput,
  enabled_events: enabledEvents,
  description: description.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type CreateWebhookEndpointInput = z.infer<typeof createWebhookEndpointInput>;

/** PATCH /v1/webhook_endpoints/:id and Mutation.updateWebhookEndpoint: only the fields given change; `description: null` clears it. */
export const updateWebhookEndpointInput = z
  .strictObject({
    url: webhookUrlInput.optional(),
    enabled_events: enabledEvents.optional(),
    description: description.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "send at least one of url, enabled_events, description, enabled" })
  .meta({ minProperties: 1 });
export type UpdateWebhookEndpointInput = z.infer<typeof updateWebhookEndpointInput>;

/** Every invalid field of an endpoint's body is 422 `invalid_field_value` naming it, as for the tenant's webhook_url. */
export function parseCreateWebhookEndpoint(body: unknown): CreateWebhookEndpointInput {
  return parseInput(createWebhookEndpointInput, body, "invalid_field_value");
}

export function parseUpdateWebhookEndpoint(body: unknown): UpdateWebhookEndpointInput {
  if (typeof body === "object" && body !== null) {
    const immutable = IMMUTABLE_ENDPOINT_FIELDS.find((field) => Object.hasOwn(body, field));
    if (immutable) throw appError("invalid_field_value", { field: immutable, message: `${immutable}: cannot be changed` });
  }
  return parseInput(updateWebhookEndpointInput, body, "invalid_field_value");
}
