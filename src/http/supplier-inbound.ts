import type { FastifyInstance } from "fastify";
import type { SupplierInboundRoute } from "../gateway/contract/connector";

/** The largest body a supplier may send us (an order event is a few tens of kilobytes). */
const INBOUND_BODY_LIMIT = 1024 * 1024;

/**
 * Serves what suppliers send us (their webhooks) at `/suppliers/<supplier>/<path>`: POST only, no
 * API key (the connector checks the sender, e.g. by signature), the body handed over as the raw
 * text it came as, and the connector's refusals answered in the catalogue's shape.
 */
export async function registerSupplierInbound(app: FastifyInstance, routes: ReadonlyArray<{ supplier: string; route: SupplierInboundRoute }>): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: INBOUND_BODY_LIMIT }, (_request, body, done) => done(null, body));
    for (const { supplier, route } of routes) {
      scope.post(`/suppliers/${supplier}/${route.path}`, async (request, reply) => {
        const answer = await route.handle({ headers: request.headers, body: typeof request.body === "string" ? request.body : "", params: request.params as Record<string, string> });
        return reply.code(answer.status).send(answer.body);
      });
    }
  });
}
