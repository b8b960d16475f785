import type { RequestContext } from "../context/request-context";
import type { Operation } from "../context/operations";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook on every authenticated path. */
    ctx?: RequestContext;
  }
  interface FastifyContextConfig {
    /** The permission-table operation a REST route performs (context/operations.ts). */
    operation?: Operation;
    /** Which interface variant's names the route's errors use (429 code spelling). */
    variant?: "A" | "B";
    /** The route takes a JSON object body: anything else, none included, is 400 `invalid_json` (http/json-body.ts). */
    jsonObjectBody?: boolean;
    /** The route's own body parsing refuses text holding U+0000, so the JSON body parser does not (http/json-body.ts). */
    validatesNulText?: boolean;
  }
}
