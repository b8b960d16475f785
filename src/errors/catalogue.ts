/**
 * The one error catalogue. Each code maps to its HTTP status, whether a retry can help, and
 * what the caller should do; REST bodies and GraphQL `extensions` are both rendered from it
 * (render-error.ts), so a code means the same thing on every interface.
 *
 * Codes are written as the interface writes them (`invalid_search_params`, `INVALID_CURSOR`);
 * the REST `errorCode` field is their upper-snake form.
 */
export const errorCatalogue = {
  malformed_http_request: { status: 400, message: "The request is not valid HTTP.", action: "Send a well-formed HTTP/1.1 request." },
  invalid_json: { status: 400, message: "The request body is not valid JSON.", action: "Send a well-formed JSON body with Content-Type: application/json." },
  validation_failed: { status: 400, message: "The request is not valid.", action: "Correct the named field and send the request again." },
  invalid_search_params: { status: 400, message: "The search parameters are not valid.", action: "Correct the named field and search again." },
  INVALID_CURSOR: { status: 400, message: "The cursor is malformed or has expired.", action: "Restart from the first page, without a cursor." },
  LIMIT_OUT_OF_RANGE: { status: 400, message: "limit must be between 1 and 100.", action: "Send a limit from 1 to 100." },
  idempotency_key_required: { status: 400, message: "This request needs an Idempotency-Key header.", action: "Send Idempotency-Key: <a unique value per intent>, and reuse it on every retry of that intent." },
  TB_AUTH_101: { status: 400, message: "Insufficient balance: the wallet cannot cover the order total.", action: "Top up the wallet, then ticket again with a new Idempotency-Key." },
  tenant_required: { status: 400, message: "This path acts on one tenant's data: name it with the Service-Tenant header.", action: "Send Service-Tenant: <tenantId>, or call with the tenant's own key." },
  query_too_deep: { status: 400, message: "The GraphQL query nests too deep.", action: "Nest fewer levels; fetch deeper data with a second query." },
  too_many_aliases: { status: 400, message: "The GraphQL document uses too many aliases.", action: "Use fewer aliases; send separate requests instead." },
  query_too_complex: { status: 400, message: "The GraphQL operation is too expensive.", action: "Ask for smaller pages (first/limit) or fewer fields." },
  too_many_tokens: { status: 400, message: "The GraphQL document is too long.", action: "Send a shorter document; split it into several operations." },
  batching_not_supported: { status: 400, message: "Batched GraphQL requests (a JSON array body) are not supported.", action: "Send one operation per request, as a JSON object." },
  insufficient_balance: { status: 402, message: "The wallet cannot cover the order total.", action: "Top up the wallet, then try again with a new Idempotency-Key." },
  unauthorized: { status: 401, message: "A valid API key is required.", action: "Send Authorization: Bearer <API_KEY> or x-api-key: <API_KEY> with an active key." },
  forbidden: { status: 403, message: "This key may not perform this operation.", action: "Use a key with the right role; tenant management needs the owner key." },
  insufficient_permissions: { status: 403, message: "This key's permissions do not allow this operation.", action: "Use a key whose permissions give the resource and level named in requiredPermission; the owner issues keys with permissions." },
  tenant_suspended: { status: 403, message: "The tenant is suspended.", action: "Ask the account owner to reactivate the tenant." },
  not_found: { status: 404, message: "No such record.", action: "Check the identifier." },
  tenant_not_found: { status: 404, message: "No such tenant.", action: "Check the tenant identifier." },
  route_not_found: { status: 404, message: "No such route.", action: "Check the method and path; every path starts with /v1." },
  order_state_conflict: { status: 409, message: "The order is not in a state that allows this.", action: "Read the order's current status; only the transitions of its lifecycle are allowed." },
  idempotency_request_in_progress: { status: 409, message: "A request with this Idempotency-Key is still being processed.", action: "Retry shortly with the same key to receive its response.", retryable: true },
  webhooks_disabled: { status: 409, message: "Webhooks are disabled for this tenant.", action: "Set webhook_url and webhook_enabled: true (PATCH /v1/tenant), then redeliver." },
  webhook_endpoint_disabled: { status: 409, message: "The webhook endpoint is disabled or was deleted.", action: "Enable the endpoint (PATCH /v1/webhook_endpoints/:id with enabled: true), then try again." },
  platform_account_exists: { status: 409, message: "The platform already has an account with this supplier in this mode.", action: "Delete it (DELETE /v1/platform_accounts/:id), then connect again with the new token." },
  supplier_webhook_changed: { status: 409, message: "The connection's webhook changed while this request registered one.", action: "Read the connection (GET /v1/supplier_connections): the other change stands; register again if you still need to." },
  supplier_connection_exists: { status: 409, message: "The tenant is already connected to this supplier.", action: "Delete the connection (DELETE /v1/supplier_connections/:id), then connect again with the new token." },
  clock_reset_refused: { status: 409, message: "The sandbox clock cannot go back to real time while the tenant has pending orders.", action: "Pay, ticket or cancel the pending orders (or advance the clock past their payment deadlines), then reset the clock." },
  tenant_deleted: { status: 409, message: "The tenant has been deleted.", action: "A deleted tenant cannot be changed; create a new one." },
  request_timeout: { status: 408, message: "The request did not arrive in time.", action: "Send the whole request promptly." },
  payload_too_large: { status: 413, message: "The request body is larger than 1 MB.", action: "Send a smaller body." },
  unsupported_media_type: { status: 415, message: "The request body must be JSON.", action: "Send Content-Type: application/json." },
  request_headers_too_large: { status: 431, message: "The URL and headers together are larger than 16 KB.", action: "Send a shorter URL or fewer headers." },
  invalid_field_value: { status: 422, message: "A field has an invalid value.", action: "Correct the named field and send the request again." },
  departure_date_out_of_range: { status: 422, message: "The departure date is not on sale yet.", action: "Search a departure no later than the last date on sale the message names." },
  offer_no_longer_available: { status: 422, message: "The offer can no longer be booked.", action: "Search again and book a current offer." },
  price_changed: { status: 422, message: "The airline priced the order again after its price guarantee ran out, and the total changed.", action: "Read the order's new total_amount and pay that." },
  seat_unavailable: { status: 422, message: "A seat chosen is taken, or chosen twice in the request.", action: "Read the seat map again and choose a seat that has available_services." },
  payment_amount_mismatch: { status: 422, message: "The payment does not match the order total.", action: "Pay exactly the offer total plus services, in the offer's currency." },
  idempotency_key_reused: { status: 422, message: "This Idempotency-Key was used for a different request.", action: "Use a new key for a new request; reuse a key only to retry the same one." },
  hold_limit_reached: { status: 422, message: "The booking would take the tenant's unpaid holds past a hold limit of its wallet.", action: "Pay or cancel unpaid orders first, or ask the account owner to raise the limit the field names." },
  currency_locked: { status: 422, message: "The default currency cannot change while the wallet holds money or an order is pending or processing.", action: "Settle or cancel open orders and empty the wallet first." },
  amount_too_large: { status: 422, message: "The amount is past the largest one held exactly (2^53 − 1 minor units).", action: "Send a smaller amount." },
  currency_mismatch: { status: 422, message: "The currency is not the wallet's.", action: "Send the amount in the wallet's currency." },
  cancellation_quote_expired: { status: 422, message: "The cancellation quote has expired.", action: "Ask for a new quote (POST /v1/air/order_cancellations) and confirm it within 15 minutes." },
  change_not_allowed: { status: 422, message: "The order cannot be changed.", action: "Only a TICKETED order whose fare allows changes (conditions.change_before_departure.allowed), before its first flight, can be changed." },
  change_offer_expired: { status: 422, message: "The order change offer has expired.", action: "Request the change again (POST /v1/air/order_change_requests) and confirm one of its offers within 15 minutes." },
  webhook_endpoint_limit_reached: { status: 422, message: "The tenant has 16 webhook endpoints besides its default one, the most it may have.", action: "Delete an endpoint no longer needed, or widen the enabled_events of one." },
  supplier_not_allowed: { status: 422, message: "The owner does not allow this tenant that supplier.", action: "Choose among the tenant's allowed suppliers (the owner sets allowed_suppliers), or search again for an offer of one of them." },
  refund_not_allowed: { status: 422, message: "The order cannot be refunded.", action: "Check the fare's refund conditions and the departure time." },
  rate_limit_exceeded: { status: 429, message: "Too many requests.", action: "Back off (start at 500 ms) and honour the Retry-After header." },
  RATE_LIMIT_EXCEEDED: { status: 429, message: "Too many requests.", action: "Honour the Retry-After header before retrying." },
  internal_server_error: { status: 500, message: "Something went wrong on our side.", action: "Retry later; quote the x-request-id if it persists." },
  clock_advanced: { status: 422, message: "The tenant's sandbox clock runs ahead of real time, and this supplier cannot run on a moved clock.", action: "Reset the sandbox clock (POST /v1/sandbox/clock/reset) to use this supplier." },
  unsupported_by_supplier: { status: 422, message: "The order's supplier does not offer this action.", action: "Check the order's available_actions; the message names the supplier." },
  supplier_error: { status: 502, message: "The supplier failed to answer (for a search: every source failed).", action: "Try again shortly; a search's supplier_results names each source's outcome, and when the reason names a connection's token, connect again with a valid one." },
  supplier_timeout: { status: 504, message: "The airline source did not answer in time.", action: "Search again, or allow a longer supplier_timeout." },
  service_unavailable: { status: 503, message: "The service is temporarily unavailable.", action: "Retry shortly, after the seconds the Retry-After header names when it is there; reuse the Idempotency-Key." },
  webhook_signature_invalid: { status: 401, message: "The webhook's signature does not verify.", action: "Sign the exact body with the webhook's secret, as the supplier documents its signature, within five minutes of sending it." },
  supplier_webhooks_unset: { status: 503, message: "Supplier webhooks are off: the service has no secret to verify them with.", action: "Ask the operator to set the supplier's webhook secret, the one the supplier gave for the webhook (README, configuration)." },
  public_url_unset: { status: 503, message: "The service does not know the public address suppliers reach it at (PUBLIC_URL).", action: "Ask the operator to set PUBLIC_URL, or create the webhook at the supplier yourself and set its secret (PATCH /v1/supplier_connections/:id)." },
  supplier_secrets_unset: { status: 503, message: "Supplier connections are off: the service has no SUPPLIER_SECRETS_KEY to encrypt their tokens with.", action: "Ask the operator to set SUPPLIER_SECRETS_KEY (32 bytes in base64), then connect again." },
  storage_full: { status: 507, message: "The service has no room to store this change.", action: "Retry after the seconds the Retry-After header names; reads still work. Reuse the Idempotency-Key." },
} as const satisfies Record<string, { status: number; message: string; action: string; retryable?: boolean }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Retrying the same request can succeed: throttling, a request still in flight, and server faults. */
export function isRetryable(code: ErrorCode): boolean {
  const entry: { status: number; retryable?: boolean } = errorCatalogue[code];
  return entry.retryable ?? (entry.status === 429 || entry.status >= 500);
}

/** `invalid_search_params` → `INVALID_SEARCH_PARAMS`; already upper-snake codes stay. */
export function upperSnake(code: string): string {
  return code.toUpperCase();
}
