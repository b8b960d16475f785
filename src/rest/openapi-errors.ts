import { z } from "zod";
import { operations } from "../context/operations";
import { errorCatalogue, type ErrorCode } from "../errors/catalogue";
import type { RestRoute } from "./route";

/**
 * What any `/v1` request can meet: a malformed request, a refused key, a suspended tenant, our
 * fault, the database unreachable or full (docs/faults.md); and what Node refuses before routing
 * (error-handler.ts `answerClientError`).
 */
const EVERY_REQUEST: ErrorCode[] = [
  "validation_failed",
  "unauthorized",
  "tenant_suspended",
  "internal_server_error",
  "service_unavailable",
  "storage_full",
  "malformed_http_request",
  "request_timeout",
  "request_headers_too_large",
];

/** The JSON body parser runs for any request but a GET that sends a body, whatever the route does with it. */
const BODY_PARSING: ErrorCode[] = ["invalid_json", "payload_too_large", "unsupported_media_type"];

/** The guard's refusals (context/authorize.ts), by who may call the operation. */
const BY_AUDIENCE: Record<"owner" | "tenant" | "anyone", ErrorCode[]> = {
  owner: ["forbidden"],
  tenant: ["tenant_required", "forbidden", "tenant_not_found"],
  anyone: ["forbidden", "tenant_not_found"],
};

/** Every POST honours Idempotency-Key (docs/rest-api.md#idempotency). */
const IDEMPOTENT: ErrorCode[] = ["idempotency_key_reused", "idempotency_request_in_progress"];

/** The 429 code is spelled as the path's variant spells it (docs/errors.md#the-rest-error-body). */
export function rateLimitCode(variant: "A" | "B" | undefined): ErrorCode {
  return variant === "B" ? "RATE_LIMIT_EXCEEDED" : "rate_limit_exceeded";
}

/** Answers to a method and path no route serves: 404 `route_not_found`, or what the request met before routing. */
export const UNMATCHED_ROUTE_CODES: ErrorCode[] = ["route_not_found", ...EVERY_REQUEST, ...BODY_PARSING, rateLimitCode("A")];

/** The query fields of a list (list-query.ts), which its page request checks. */
function queryFields(route: RestRoute<any, any, any>): string[] {
  return route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [];
}

/** Every catalogued error `route` can answer: the ones of its kind, then its domain's own. */
export function routeErrorCodes(route: RestRoute<any, any, any>): ErrorCode[] {
  const rule = operations[route.operation];
  const codes = new Set<ErrorCode>([...EVERY_REQUEST, rateLimitCode(route.variant), ...BY_AUDIENCE[rule.audience]]);
  if (rule.permission !== null) codes.add("insufficient_permissions");
  if (route.method !== "GET") for (const code of BODY_PARSING) codes.add(code);
  if (route.method === "POST") {
    for (const code of IDEMPOTENT) codes.add(code);
    if (route.idempotencyKeyRequired) codes.add("idempotency_key_required");
  }
  if (route.body && !route.parseBody && route.bodyErrorCode) codes.add(route.bodyErrorCode);
  if (route.query && route.queryErrorCode) codes.add(route.queryErrorCode);
  const query = queryFields(route);
  if (query.includes("limit")) codes.add("LIMIT_OUT_OF_RANGE");
  if (query.includes("cursor")) codes.add("INVALID_CURSOR");
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes];
}

/** Codes grouped by their HTTP status, statuses ascending. */
export function codesByStatus(codes: ErrorCode[]): Array<[number, ErrorCode[]]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code].status;
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return [...groups].sort(([a], [b]) => a - b);
}
