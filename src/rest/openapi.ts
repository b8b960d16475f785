import { z } from "zod";
import { errorCatalogue } from "../errors/catalogue";
import { API_VERSION } from "../errors/render-error";
import type { RestRoute } from "./route";

/** The OpenAPI 3.1 document of `/v1`, generated from the same route table the server registers. */
export function openApiDocument(routes: ReadonlyArray<RestRoute<any, any>>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z]+)/g, "{$1}");
    const parameters = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => ({ name: match[1], in: "path", required: true, schema: { type: "string" } }));
    if (route.query) {
      const schema = z.toJSONSchema(route.query, { io: "input" }) as { properties?: Record<string, unknown> };
      for (const [name, property] of Object.entries(schema.properties ?? {})) parameters.push({ name, in: "query", required: false, schema: property as { type: string } });
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operation,
      summary: route.summary,
      tags: [route.tag],
      parameters,
      ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: z.toJSONSchema(route.body, { io: "input", unrepresentable: "any" }) } } } } : {}),
      responses: {
        [String(route.status ?? 200)]: { description: "Success: `{ success: true, message, data }`" },
        default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Aerogate REST compatibility layer", version: API_VERSION, description: "Every request carries `Authorization: Bearer <API_KEY>` or `x-api-key: <API_KEY>`. The owner acts for a tenant with `Service-Tenant: <tenantId>`." },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" }, apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
      schemas: {
        Error: {
          type: "object",
          properties: {
            errors: { type: "array", items: { type: "object", properties: { code: { enum: Object.keys(errorCatalogue) }, message: { type: "string" }, field: { type: "string" } } } },
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
          },
        },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
  };
}
