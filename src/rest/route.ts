import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { authorize } from "../context/authorize";
import type { Operation } from "../context/operations";
import { requestTenantId, type RequestContext } from "../context/request-context";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalogue";
import { restErrorFor } from "../http/error-handler";
import { requestFingerprint } from "../idempotency/fingerprint";
import { IDEMPOTENCY_HEADER, idempotencyKey } from "../idempotency/idempotency-key";
import { OWNER_SCOPE, type FirstResponse, type StoredResponse } from "../idempotency/idempotency.service";
import { parseInput } from "../validation/parse-input";
import { DocumentBody, JsonText } from "./rendered-responses";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteInput<Body, Query> {
  ctx: RequestContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** The request's Idempotency-Key (POST), or null without one. */
  idempotencyKey?: string | null;
  /** The request's Accept header, for routes that answer in several media types (`produces`). */
  accept?: string;
}

/**
 * A `/v1` route: what it is (for the OpenAPI document), who may call it (`operation`), how its
 * input is parsed, what it answers, and one handler that calls the domain and shapes the output.
 */
export interface RestRoute<Body = unknown, Query = unknown, Response = unknown> {
  method: Method;
  url: string;
  operation: Operation;
  /** The OpenAPI operationId when `operation` (+ "B" on Variant B paths) is already another route's. */
  operationId?: string;
  summary: string;
  tag: string;
  variant?: "A" | "B";
  /** Body schema; `parseBody` overrides how it is applied (e.g. a 422 instead of a 400). */
  body?: z.ZodType<Body>;
  parseBody?: (raw: unknown) => Body;
  /**
   * `parseBody` refuses text holding U+0000 itself, in the route's own terms (PATCH /v1/tenant:
   * 422 `invalid_field_value`); the JSON body parser then leaves that to it instead of answering
   * 400 `validation_failed` as on every other route.
   */
  validatesNulText?: boolean;
  bodyErrorCode?: ErrorCode;
  query?: z.ZodType<Query>;
  /** The code of a refused query parameter (default 400 `validation_failed`). */
  queryErrorCode?: ErrorCode;
  /** Status of a success (default 200). */
  status?: number;
  /**
   * The media types a success is answered in (default JSON alone), chosen by the Accept header:
   * "application/json" is `response`; any other is a document (`DocumentBody`).
   */
  produces?: readonly string[];
  /** The success body: the handler must return this shape, and the OpenAPI document describes it. */
  response: z.ZodType<Response>;
  /**
   * The catalogued errors its domain can answer, besides those every route of its kind can
   * (authentication, permissions, body, list and idempotency errors: openapi-errors.ts).
   */
  errors?: ErrorCode[];
  /**
   * POST routes honour an `Idempotency-Key` header (docs/rest-api.md#idempotency); `true` makes it required
   * (400 `idempotency_key_required` without it).
   */
  idempotencyKeyRequired?: boolean;
  /**
   * For an answer that shows a secret once: the same answer with the secret nulled. An
   * Idempotency-Key record keeps this instead, and repeats receive it (the secret is never stored).
   */
  redactForReplay?(response: NoInfer<Response>): NoInfer<Response>;
  /**
   * For a body that carries a secret (a supplier's access token): what of it the Idempotency-Key
   * fingerprint covers instead of the whole body, so no record is derived from the secret alone
   * (a keyed HMAC of it at most).
   */
  fingerprintBody?(raw: unknown, ctx: RequestContext): unknown;
  handle(input: RouteInput<Body, Query>): Promise<NoInfer<Response> | JsonText<NoInfer<Response>> | DocumentBody>;
}

/** Declares a route with its body, query and response types inferred from the schemas. */
export function restRoute<Body = undefined, Query = Record<string, never>, Response = unknown>(route: RestRoute<Body, Query, Response>): RestRoute<Body, Query, Response> {
  return route;
}

/**
 * Registers routes on the app: authorize, parse, handle; errors flow to the catalogue handler.
 * A POST with an `Idempotency-Key` runs once per key (after authorisation, so a refused caller
 * claims nothing), and its answer, success or catalogued error, is what every repeat receives
 * (with any secret it showed once redacted: `redactForReplay`).
 */
export function registerRestRoutes(app: FastifyInstance, routes: ReadonlyArray<RestRoute<any, any, any>>): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      config: { operation: route.operation, variant: route.variant ?? "A", jsonObjectBody: route.body !== undefined || route.parseBody !== undefined, validatesNulText: route.validatesNulText ?? false },
      handler: async (request, reply) => {
        const ctx = request.ctx;
        if (!ctx) throw new Error(`route ${route.url} reached without a request context`);
        await authorize(ctx, route.operation, request.query as Record<string, unknown>);
        const key = route.method === "POST" ? idempotencyKey(request.headers["idempotency-key"], route.idempotencyKeyRequired ?? false, IDEMPOTENCY_HEADER) : null;
        const body = route.parseBody
          ? route.parseBody(request.body)
          : route.body
            ? parseInput(route.body, request.body, route.bodyErrorCode)
            : undefined;
        const query = route.query ? parseInput(route.query, request.query, route.queryErrorCode) : {};
        const input = { ctx, body, query, params: request.params as Record<string, string>, idempotencyKey: key, accept: request.headers.accept };
        if (key === null) {
          const result = await route.handle(input);
          reply.code(route.status ?? 200);
          if (result instanceof JsonText) return reply.type("application/json; charset=utf-8").send(result.text);
          if (result instanceof DocumentBody) return reply.type(result.contentType).header("content-disposition", `attachment; filename="${result.filename}"`).send(result.body);
          return result;
        }
        const tenantId = requestTenantId(ctx);
        const outcome = await ctx.services.idempotency.run(
          { scope: tenantId ?? OWNER_SCOPE, tenantId, key, field: IDEMPOTENCY_HEADER, fingerprint: requestFingerprint(`${request.method} ${request.url}`, route.fingerprintBody ? route.fingerprintBody(request.body, ctx) : request.body) },
          () => respondOnce(route, input, request),
        );
        if (outcome.replayed) reply.header("idempotent-replayed", "true");
        return sendStored(reply, outcome);
      },
    });
  }
}

/**
 * The route's answer as it will be stored: its success, or a catalogued client error (with the
 * reason its repeats give, when it has one of its own: `replayReason`). A server error is thrown
 * instead, which releases the key so a retry can run.
 */
async function respondOnce(route: RestRoute<any, any, any>, input: RouteInput<unknown, unknown>, request: FastifyRequest): Promise<FirstResponse> {
  try {
    const result = await route.handle(input);
    const status = route.status ?? 200;
    if (result instanceof DocumentBody) throw new Error(`${route.url} answers documents: it cannot take an Idempotency-Key`);
    if (result instanceof JsonText) return { status, body: result.text.toString() };
    return { status, body: JSON.stringify(result), replayBody: route.redactForReplay && JSON.stringify(route.redactForReplay(result)) };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      const { replayReason } = error.details;
      const replayed = replayReason === undefined ? undefined : new AppError(error.code, { ...error.details, reason: replayReason });
      return { status: error.status, body: JSON.stringify(restErrorFor(request, error)), replayBody: replayed && JSON.stringify(restErrorFor(request, replayed)) };
    }
    throw error;
  }
}

function sendStored(reply: FastifyReply, response: StoredResponse): FastifyReply {
  return reply.code(response.status).type("application/json; charset=utf-8").send(response.body);
}
