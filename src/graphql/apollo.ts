import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from "@as-integrations/fastify";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { GraphQLSchema } from "graphql";
import type { RequestContext } from "../context/request-context";
import type { Logger } from "../logger";
import { appError } from "../errors/app-error";
import { formatGraphQLError } from "./format-error";
import { operationLimitsPlugin } from "./operation-limits";
import { GRAPHQL_LIMITS, limitRules } from "./query-limits";
import { registerPlayground } from "./playground";

/**
 * Every GraphQL answer is for one caller's key, so none may be cached: `Cache-Control: no-store`,
 * the header Apollo's default cache-control plugin computed for us (the schema has no
 * `@cacheControl` hints). That plugin did it by hooking every resolved field (~8 µs on the
 * smallest query, growing with the result), so it is disabled and this sets the header directly.
 * Adding `@cacheControl` hints would need `ApolloServerPluginCacheControl` back.
 */
function noStorePlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set("cache-control", "no-store");
        },
      };
    },
  };
}

/**
 * Serves GraphQL over HTTP at /graphql (POST and GET) with Apollo Server. The request context
 * was built by the authentication hook; Apollo only passes it on.
 */
export async function registerGraphQL(app: FastifyInstance, schema: GraphQLSchema, log: Logger): Promise<ApolloServer<RequestContext>> {
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError: formatGraphQLError(log),
    includeStacktraceInErrorResponses: false,
    // The schema is public documentation (the playground reads it); Apollo would turn this off
    // under NODE_ENV=production, which `npm start` sets.
    introspection: true,
    // Limits (query-limits.ts): tokens bound the document before it is parsed (a clean 400),
    // depth and aliases are validation rules, cost is checked once the operation is resolved.
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    validationRules: [...limitRules],
    allowBatchedHttpRequests: false,
    plugins: [fastifyApolloDrainPlugin(app), registerPlayground(app), ApolloServerPluginCacheControlDisabled(), noStorePlugin(), operationLimitsPlugin(schema)],
  });
  await apollo.start();
  app.route({
    url: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    // Apollo would refuse a batch too, as a generic BAD_REQUEST; this names it.
    preValidation: async (request: FastifyRequest) => {
      if (Array.isArray(request.body)) throw appError("batching_not_supported");
    },
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => {
        if (!request.ctx) throw new Error("GraphQL request reached without a request context");
        return request.ctx;
      },
    }),
  });
  return apollo;
}
