import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from "@as-integrations/fastify";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { DocumentNode, GraphQLSchema } from "graphql";
import { Counter, type Registry } from "prom-client";
import type { RequestContext } from "../context/request-context";
import type { DatabaseAvailability } from "../db/availability";
import type { Logger } from "../logger";
import { appError } from "../errors/app-error";
import { isPlaygroundPage } from "../http/authentication";
import { formatGraphQLError } from "./format-error";
import { operationLimitsPlugin } from "./operation-limits";
import { GRAPHQL_LIMITS, limitRules, refuseWideSelectionSets } from "./query-limits";
import { registerPlayground } from "./playground";
import { GRAPHQL_CACHE_CONTROL, preparedAnswerer } from "./prepared-http";
import { asParty, PartyCache, partyOf } from "./party-caches";
import { DOCUMENTS_KEPT, MAX_SOURCE_LENGTH, PreparedOperations } from "./prepared-operations";
import { refusedAnswer } from "./refused-answer";

/**
 * `Cache-Control: no-store` on every answer, the header Apollo's default cache-control plugin
 * computed for us (the schema has no `@cacheControl` hints). That plugin did it by hooking every
 * resolved field (~8 µs on the smallest query, growing with the result), so it is disabled and
 * this sets the header directly. Adding `@cacheControl` hints would need it back.
 */
function noStorePlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set("cache-control", GRAPHQL_CACHE_CONTROL);
        },
      };
    },
  };
}

/** An answer the database could not complete carries its 503 or 507 and Retry-After (refused-answer.ts). */
function refusedAnswerPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          const refused = response.body.kind === "single" ? refusedAnswer(response.body.singleResult.errors) : null;
          if (!refused) return;
          response.http.status = refused.status;
          if (refused.retryAfterSeconds !== undefined) response.http.headers.set("retry-after", String(refused.retryAfterSeconds));
        },
      };
    },
  };
}

/** Hands every document Apollo accepted (parsed, validated, its operation resolved) to the prepared operations. */
function acceptedDocumentsPlugin(prepared: PreparedOperations): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ source, document, contextValue }) {
          prepared.accept(partyOf(contextValue), source, document);
        },
      };
    },
  };
}

/** The document of a GraphQL request as Apollo reads it: the POST body's `query`, or GET's `query` parameter. */
function graphqlSource(request: FastifyRequest): unknown {
  const fields = (request.method === "GET" ? request.query : request.body) as { query?: unknown } | null | undefined;
  return fields?.query;
}

/**
 * Serves GraphQL over HTTP at /graphql (POST and GET) with Apollo Server. The request context
 * was built by the authentication hook; Apollo only passes it on.
 *
 * Apollo's pipeline costs ~25 µs a request on this machine (hashing, content negotiation, plugin
 * stages), more than all of ours together, so a repeat of an operation Apollo has accepted runs
 * its compiled plan directly (prepared-http.ts); Apollo answers everything else. A plugin added
 * here sees first sights only: a rule every answer must follow (no-store, limits, suggestions)
 * is a function both pipelines call.
 */
export async function registerGraphQL(app: FastifyInstance, schema: GraphQLSchema, log: Logger, registry: Registry, availability: DatabaseAvailability): Promise<ApolloServer<RequestContext>> {
  const prepared = new PreparedOperations(schema);
  const sendPlayground = registerPlayground(app);
  const formatError = formatGraphQLError(log, availability);
  const apollo = new ApolloServer<RequestContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    // The schema is public documentation (the playground reads it); Apollo would turn this off
    // under NODE_ENV=production, which `npm start` sets.
    introspection: true,
    // Limits (query-limits.ts): tokens bound the document before it is parsed (a clean 400),
    // depth and aliases are validation rules, cost is checked once the operation is resolved.
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    validationRules: [...limitRules],
    allowBatchedHttpRequests: false,
    // Persisted queries and parsed documents, kept per party as the prepared operations are.
    persistedQueries: { cache: new PartyCache<string>(DOCUMENTS_KEPT, (query) => query.length <= MAX_SOURCE_LENGTH) },
    documentStore: new PartyCache<DocumentNode>(DOCUMENTS_KEPT, (document) => (document.loc?.source.body.length ?? Infinity) <= MAX_SOURCE_LENGTH),
    // The playground page is ours (below), sent with the headers of every page.
    plugins: [fastifyApolloDrainPlugin(app), ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), noStorePlugin(), refusedAnswerPlugin(), operationLimitsPlugin(schema), acceptedDocumentsPlugin(prepared)],
  });
  await apollo.start();
  const answerPrepared = preparedAnswerer(prepared, formatError);
  const answerWithApollo = fastifyApolloHandler(apollo, {
    context: async (request) => {
      if (!request.ctx) throw new Error("GraphQL request reached without a request context");
      return request.ctx;
    },
  });
  const answers = new Counter({
    name: "aerogate_graphql_http_requests_total",
    help: "GraphQL HTTP requests by pipeline: prepared (a repeat of an accepted operation, run compiled) or apollo (everything else).",
    labelNames: ["pipeline"] as const,
    registers: [registry],
  });
  const preparedAnswers = answers.labels("prepared");
  const apolloAnswers = answers.labels("apollo");
  app.route({
    url: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    // Apollo would refuse a batch too, as a generic BAD_REQUEST; this names it.
    preValidation: async (request: FastifyRequest) => {
      if (Array.isArray(request.body)) throw appError("batching_not_supported");
    },
    handler: async function (this: FastifyInstance, ...[request, reply]: Parameters<typeof answerWithApollo>) {
      if (isPlaygroundPage(request)) return sendPlayground(reply);
      const body = await answerPrepared(request, reply);
      if (body !== null) {
        preparedAnswers.inc();
        return body;
      }
      apolloAnswers.inc();
      if (!request.ctx) throw new Error("GraphQL request reached without a request context");
      // A document Apollo will parse and validate: too wide a selection set is refused before (query-limits.ts).
      refuseWideSelectionSets(graphqlSource(request));
      return asParty(partyOf(request.ctx), () => answerWithApollo.call(this, request, reply));
    },
  });
  return apollo;
}
