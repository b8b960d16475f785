import { ApolloServer } from "@apollo/server";
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from "@as-integrations/fastify";
import type { FastifyInstance } from "fastify";
import type { GraphQLSchema } from "graphql";
import type { RequestContext } from "../context/request-context";
import type { Logger } from "../logger";
import { formatGraphQLError } from "./format-error";
import { playgroundPlugin } from "./playground";

/** Bounds a query's size before it is parsed, so a huge document is a clean 400. */
const MAX_TOKENS = 5000;

/**
 * Serves GraphQL over HTTP at /graphql (POST and GET) with Apollo Server. The request context
 * was built by the authentication hook; Apollo only passes it on.
 */
export async function registerGraphQL(app: FastifyInstance, schema: GraphQLSchema, log: Logger): Promise<ApolloServer<RequestContext>> {
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError: formatGraphQLError(log),
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: MAX_TOKENS },
    plugins: [fastifyApolloDrainPlugin(app), playgroundPlugin()],
  });
  await apollo.start();
  app.route({
    url: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => {
        if (!request.ctx) throw new Error("GraphQL request reached without a request context");
        return request.ctx;
      },
    }),
  });
  return apollo;
}
