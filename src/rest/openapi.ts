import { z } from "zod";
import { PERMISSION_RESOURCES } from "../tenancy/key-permissions";
import { errorCatalogue, upperSnake, type ErrorCode } from "../errors/catalogue";
import { API_VERSION } from "../errors/render-error";
import { IDEMPOTENCY_KEY_PATTERN } from "../idempotency/idempotency-key";
import { codesByStatus, routeErrorCodes, UNMATCHED_ROUTE_CODES } from "./openapi-errors";
import { unstatedRefinements, withNulRefused } from "./request-rules";
import type { RestRoute } from "./route";

type JsonSchema = Record<string, unknown>;

/**
 * Zod schemas as JSON Schema inside one document: each schema named with `.meta({ id })` lands
 * once in `components.schemas` and is referenced from everywhere it appears.
 */
class ComponentSchemas {
  readonly named: Record<string, JsonSchema> = {};

  add(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const { $schema: _dialect, $defs, ...rest } = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as typeof json;
    Object.assign(this.named, $defs);
    return rest;
  }
}

/** The Error body restricted to `codes`, all of one HTTP `status`. */
function errorSchema(codes: ErrorCode[], status?: number): JsonSchema {
  return {
    allOf: [
      { $ref: "#/components/schemas/Error" },
      {
        type: "object",
        properties: {
          errors: { type: "array", items: { type: "object", properties: { code: { enum: codes } } } },
          errorCode: { enum: [...new Set(codes.map(upperSnake))] },
          ...(status === undefined ? {} : { statusCode: { const: status } }),
        },
      },
    ],
  };
}

/** Answers that carry Retry-After: throttling (429), and the database unreachable (503) or full (507). */
const RETRY_AFTER_STATUSES = new Set([429, 503, 507]);

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  return Object.fromEntries(
    codesByStatus(codes).map(([status, group]) => [
      String(status),
      {
        description: group.map((code) => `\`${code}\`: ${errorCatalogue[code].message}`).join("\n\n"),
        ...(RETRY_AFTER_STATUSES.has(status) ? { headers: { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } } } } : {}),
        content: { "application/json": { schema: errorSchema(group, status) } },
      },
    ]),
  );
}

/** What an object's JSON Schema says of each of its properties, and nothing else. */
const PER_PROPERTY_KEYWORDS = new Set(["type", "properties", "required", "additionalProperties", "description"]);

/**
 * The query string's parameters, one each; a query with rules across its parameters (one of two
 * required, `oneOf`) is one parameter instead, an object written as `name=value` pairs
 * (`style: form`, `explode: true`), whose schema carries them.
 */
function queryParameters(route: RestRoute<any, any, any>, schemas: ComponentSchemas) {
  if (!route.query) return [];
  const query = schemas.add(route.query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  if (Object.keys(query).some((keyword) => !PER_PROPERTY_KEYWORDS.has(keyword))) {
    return [{ name: "parameters", in: "query", required: (query.required ?? []).length > 0, style: "form", explode: true, schema: query }];
  }
  const required = new Set(query.required ?? []);
  return Object.entries(query.properties ?? {}).map(([name, schema]) => ({ name, in: "query", required: required.has(name), schema }));
}

function parameters(route: RestRoute<any, any, any>, schemas: ComponentSchemas) {
  const path = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => ({ name: match[1], in: "path", required: true, schema: { type: "string", minLength: 1 } }));
  return [...path, ...queryParameters(route, schemas)];
}

/** Every refinement of the route's request schemas states its rule in the document (request-rules.ts). */
function checkStated(route: RestRoute<any, any, any>): void {
  const unstated = [...(route.body ? unstatedRefinements(route.body, "body") : []), ...(route.query ? unstatedRefinements(route.query, "query") : [])];
  if (unstated.length > 0) {
    throw new Error(`${route.method} ${route.url}: the refinement at ${unstated.join(", ")} states no rule in /openapi.json: give it JSON Schema keywords with .meta() (docs/request-rules.md)`);
  }
}

function operation(route: RestRoute<any, any, any>, schemas: ComponentSchemas) {
  checkStated(route);
  const idempotencyKey =
    route.method === "POST" ? [{ name: "Idempotency-Key", in: "header", required: route.idempotencyKeyRequired ?? false, schema: { type: "string", pattern: IDEMPOTENCY_KEY_PATTERN } }] : [];
  return {
    operationId: route.operationId ?? route.operation + (route.variant === "B" ? "B" : ""),
    summary: route.summary,
    tags: [route.tag],
    parameters: [...parameters(route, schemas), ...idempotencyKey],
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: withNulRefused(schemas.add(route.body, "input")) } } } } : {}),
    responses: {
      [String(route.status ?? 200)]: { description: "Success", content: { "application/json": { schema: schemas.add(route.response, "output") } } },
      ...errorResponses(routeErrorCodes(route)),
    },
  };
}

/**
 * The OpenAPI 3.1 document of `/v1`, generated from the same route table the server registers:
 * each route's success body from the schema its handler is typed by, and each error it can
 * answer with its catalogued codes.
 */
export function openApiDocument(routes: ReadonlyArray<RestRoute<any, any, any>>) {
  const schemas = new ComponentSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const described = operation(route, schemas);
    if (operationIds.has(described.operationId)) throw new Error(`two routes share the operationId ${described.operationId}: give ${route.method} ${route.url} its own`);
    operationIds.add(described.operationId);
    (paths[route.url.replace(/:([A-Za-z]+)/g, "{$1}")] ??= {})[route.method.toLowerCase()] = described;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Aerogate REST compatibility layer",
      version: API_VERSION,
      description: [
        "Every request carries `Authorization: Bearer <API_KEY>` or `x-api-key: <API_KEY>`. The owner acts for a tenant with `Service-Tenant: <tenantId>`.",
        "Every error has the `Error` shape; each operation lists the codes it can answer under their status. A method and path not listed here answers as `components.responses.UnmatchedRoute` describes (404 `route_not_found`, or an error the request met before routing).",
      ].join("\n\n"),
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" }, apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
      responses: {
        UnmatchedRoute: { description: "A method and path no operation serves", content: { "application/json": { schema: errorSchema(UNMATCHED_ROUTE_CODES) } } },
      },
      schemas: {
        ...schemas.named,
        Error: {
          type: "object",
          required: ["errors", "success", "statusCode", "errorCode", "message", "fault", "retryable", "suggestedAction", "reason", "environment", "apiVersion", "requestId"],
          additionalProperties: false,
          properties: {
            errors: {
              type: "array",
              items: {
                type: "object",
                required: ["code", "message"],
                additionalProperties: false,
                properties: { code: { enum: Object.keys(errorCatalogue) }, message: { type: "string" }, field: { type: "string" } },
              },
            },
            success: { const: false },
            statusCode: { type: "integer" },
            errorCode: { type: "string" },
            message: { type: "string" },
            fault: { enum: ["client", "server"] },
            retryable: { type: "boolean" },
            suggestedAction: { type: "string" },
            reason: { type: "string" },
            environment: { enum: ["sandbox", "live", null] },
            apiVersion: { type: "string" },
            requestId: { type: "string" },
            requiredPermission: {
              description: "403 insufficient_permissions: the resource and level the key lacks",
              type: "object",
              required: ["resource", "level"],
              additionalProperties: false,
              properties: { resource: { enum: PERMISSION_RESOURCES }, level: { enum: ["read", "write"] } },
            },
          },
        },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
  };
}
