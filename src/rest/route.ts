import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { authorize } from "../context/authorize";
import type { Operation } from "../context/operations";
import type { RequestContext } from "../context/request-context";
import type { ErrorCode } from "../errors/catalogue";
import { parseInput } from "../validation/parse-input";
import { JsonText } from "./rendered-responses";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteInput<Body, Query> {
  ctx: RequestContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
}

/**
 * A `/v1` route: what it is (for the OpenAPI document), who may call it (`operation`), how its
 * input is parsed, and one handler that calls the domain and shapes the output.
 */
export interface RestRoute<Body = unknown, Query = unknown> {
  method: Method;
  url: string;
  operation: Operation;
  summary: string;
  tag: string;
  variant?: "A" | "B";
  /** Body schema; `parseBody` overrides how it is applied (e.g. a 422 instead of a 400). */
  body?: z.ZodType<Body>;
  parseBody?: (raw: unknown) => Body;
  bodyErrorCode?: ErrorCode;
  query?: z.ZodType<Query>;
  /** Status of a success (default 200). */
  status?: number;
  handle(input: RouteInput<Body, Query>): Promise<unknown>;
}

/** Declares a route with its body and query types inferred from the schemas. */
export function restRoute<Body = undefined, Query = Record<string, never>>(route: RestRoute<Body, Query>): RestRoute<Body, Query> {
  return route;
}

/** Registers routes on the app: authorize, parse, handle; errors flow to the catalogue handler. */
export function registerRestRoutes(app: FastifyInstance, routes: ReadonlyArray<RestRoute<any, any>>): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      config: { operation: route.operation, variant: route.variant ?? "A" },
      handler: async (request, reply) => {
        const ctx = request.ctx;
        if (!ctx) throw new Error(`route ${route.url} reached without a request context`);
        await authorize(ctx, route.operation);
        const body = route.parseBody
          ? route.parseBody(request.body)
          : route.body
            ? parseInput(route.body, request.body ?? {}, route.bodyErrorCode)
            : undefined;
        const query = route.query ? parseInput(route.query, request.query) : {};
        const result = await route.handle({ ctx, body, query, params: request.params as Record<string, string> });
        reply.code(route.status ?? 200);
        if (result instanceof JsonText) return reply.type("application/json; charset=utf-8").send(result.text);
        return result;
      },
    });
  }
}
