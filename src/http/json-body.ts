import type { FastifyInstance } from "fastify";
import secureJson from "secure-json-parse";
import { appError } from "../errors/app-error";

/**
 * JSON bodies: an empty body reads as no body (clients often send `Content-Type: application/json`
 * on a bodiless POST), malformed JSON is 400 `invalid_json`, and prototype-poisoning keys are refused.
 * JSON is the only body type: Fastify's default `text/plain` parser is removed, so any other
 * content type is 415 `unsupported_media_type` instead of a string reaching a route's schema.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" }));
    } catch {
      done(appError("invalid_json"), undefined);
    }
  });
}
