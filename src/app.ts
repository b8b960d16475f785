import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { PubSub } from "./events/pubsub";
import { buildSchema } from "./graphql/schema";
import { registerGraphQL } from "./graphql/apollo";
import { registerSubscriptions } from "./graphql/subscriptions";
import { registerAuthentication } from "./http/authentication";
import { answerClientError, answerFrameworkError, registerErrorHandling } from "./http/error-handler";
import { registerHealthRoutes } from "./http/health.routes";
import { registerDocsRoutes } from "./http/docs.routes";
import { registerConsoleRoutes } from "./http/console.routes";
import { registerJsonBodyParser } from "./http/json-body";
import { registerMetrics } from "./http/metrics";
import { registerOrderMetrics } from "./http/order-metrics";
import { registerWebhookMetrics } from "./http/webhook-metrics";
import { registerSupplierMetrics } from "./http/supplier-metrics";
import { registerDatabaseMetrics } from "./http/database-metrics";
import { registerRetentionMetrics } from "./http/retention-metrics";
import { registerRateLimit } from "./http/rate-limit";
import { requestIdFor } from "./http/request-id";
import { registerUsageCounting } from "./http/usage-counting";
import { registerAccessLog } from "./http/access-log";
import "./http/fastify-types";
import type { Logger } from "./logger";
import { openApiDocument } from "./rest/openapi";
import { registerRestRoutes } from "./rest/route";
import { COMPATIBLE_API_MOUNTS, registerCompatibleApis } from "./compat";
import { restRoutes } from "./rest/routes";
import { registerSupplierInbound } from "./http/supplier-inbound";
import { createServices, type Services } from "./services";
import { startBackgroundWork } from "./background-work";

const BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_PARAM_LENGTH = 16 * 1024;

export interface App {
  http: FastifyInstance;
  services: Services;
  /** Stops accepting, lets in-flight requests finish, closes sockets, stops the job worker and flushes counters. */
  close(): Promise<void>;
}

/**
 * Everything served on the one port: REST under /v1, GraphQL over HTTP and WebSocket at
 * /graphql, health, readiness, metrics and the OpenAPI document; and the background work (the
 * order job worker). Not yet listening.
 */
export async function buildApp(config: Config, db: Database, pubsub: PubSub, log: Logger): Promise<App> {
  const services = await createServices(config, db, pubsub, log);
  const http: FastifyInstance = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    // Our access log (http/access-log.ts) replaces Fastify's two lines per request.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdFor,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError(log),
    // Past the default 100 characters the router itself refused a path; a long id now reaches its
    // route and gets the 404 any unknown id gets (the URL stays bounded by Node's 16 KB header limit).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
  });
  let closing = false;
  http.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  // An answer sent while shutting down (a request in flight when it began) ends its keep-alive
  // connection; otherwise closing would wait for that connection's idle timeout (72 s).
  http.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
  registerJsonBodyParser(http);
  registerErrorHandling(http, log, db.availability);
  const registry = registerMetrics(http);
  registerOrderMetrics(registry, services);
  registerWebhookMetrics(registry, services);
  registerSupplierMetrics(registry, services);
  registerDatabaseMetrics(registry, db.availability);
  registerRetentionMetrics(registry, services);
  registerAuthentication(http, services, COMPATIBLE_API_MOUNTS);
  registerRateLimit(http, services.rateLimiter);
  registerUsageCounting(http, services.usageMeter);
  registerAccessLog(http);
  registerHealthRoutes(http, db, registry, config.METRICS_TOKEN);
  // Built once at start: a route whose request rules the document cannot state stops the start (rest/request-rules.ts).
  const openApi = openApiDocument(restRoutes);
  http.get("/openapi.json", async () => openApi);
  registerDocsRoutes(http);
  registerConsoleRoutes(http, log);
  registerRestRoutes(http, restRoutes);
  await registerCompatibleApis(http, services);
  await registerSupplierInbound(http, services.supplierInbound);
  const schema = buildSchema();
  await registerGraphQL(http, schema, log, registry, db.availability);
  const closeSubscriptions = registerSubscriptions(http.server, schema, services);
  const stopBackgroundWork = await startBackgroundWork(services);
  return {
    http,
    services,
    async close() {
      closing = true;
      await closeSubscriptions();
      // Searches still answering batch offer requests end now (their suppliers still out: timeout),
      // and reads waiting for batches answer with what has arrived: closing waits for no deadline.
      await services.batchOfferRequests.stop();
      await http.close();
      await stopBackgroundWork();
      await services.usageMeter.flush();
      await services.supplierHealth.flush();
    },
  };
}
