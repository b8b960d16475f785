import type { FastifyInstance, FastifyRequest } from "fastify";
import secureJson from "secure-json-parse";
import { appError } from "../errors/app-error";
import { jsonBodyProblem } from "../validation/json-body-problem";

/**
 * JSON bodies: an empty body reads as no body (clients often send `Content-Type: application/json`
 * on a bodiless POST), malformed JSON is 400 `invalid_json`, and prototype-poisoning keys are refused.
 * JSON is the only body type: Fastify's default `text/plain` parser is removed, so any other
 * content type is 415 `unsupported_media_type` instead of a string reaching a route's schema.
 * Where a body is required (see `bodyProblem`), a missing one is `invalid_json` too. A string
 * holding U+0000 is 400 `validation_failed` naming where it is: PostgreSQL's text and jsonb
 * cannot store it, and refusing it here makes both databases answer alike, on every route (but one
 * whose own validation refuses it: `validatesNulText`, PATCH /v1/tenant's 422). So is
 * a body nesting deeper than MAX_JSON_DEPTH: no route takes one, and code walking bodies
 * (validation, fingerprints, GraphQL variables) need not survive one.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    let value: unknown;
    try {
      value = secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
    } catch {
      return done(appError("invalid_json"), undefined);
    }
    // JSON can only carry U+0000 escaped, so bodies without the escape need no look for it. A route
    // whose own validation refuses it (config `validatesNulText`: PATCH /v1/tenant) answers it itself.
    const problem = jsonBodyProblem(value, text.includes("\\u0000") && !request.routeOptions.config.validatesNulText);
    if (problem !== null) return done(appError("validation_failed", { field: problem.field || "(body)", reason: problem.reason }), undefined);
    done(null, value);
  });
  // After parsing, before the route: the same point where malformed JSON is refused, so an empty
  // body gets the same answer, ahead of permission and Idempotency-Key checks.
  app.addHook("preValidation", (request, _reply, done) => {
    const problem = bodyProblem(request);
    done(problem ? appError("invalid_json", { message: problem }) : undefined);
  });
}

/**
 * What a route needs from its body: REST routes that declare a body take a JSON object (config
 * `jsonObjectBody`); GraphQL over HTTP POST takes an operation object, or an array (a batch,
 * which the GraphQL layer answers).
 */
function bodyProblem(request: FastifyRequest): string | null {
  const body: unknown = request.body;
  if (request.routeOptions.config.jsonObjectBody) {
    return isJsonObject(body) ? null : `The request body must be a JSON object; ${whatWasSent(body)}.`;
  }
  if (request.method === "POST" && request.routeOptions.url === "/graphql") {
    return isJsonObject(body) || Array.isArray(body) ? null : `A GraphQL request body must be a JSON object with a query; ${whatWasSent(body)}.`;
  }
  return null;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function whatWasSent(body: unknown): string {
  if (body === undefined) return "no body was sent";
  if (body === null) return "null was sent";
  return `a JSON ${Array.isArray(body) ? "array" : typeof body} was sent`;
}
