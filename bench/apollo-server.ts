import { ApolloServer } from "@apollo/server";
import { fastifyApolloHandler } from "@as-integrations/fastify";
import Fastify from "fastify";

/**
 * Apollo Server alone: bare Fastify with Apollo Server 5 (as src/graphql/apollo.ts mounts it) over
 * a one-field schema, no authentication, hooks or plugins of ours. `{ __typename }` here measures
 * Apollo's own cost per request, so the GraphQL scenarios' figures split into Apollo's part and
 * ours. Started by bench/run.ts in its own process, like the bare baseline.
 */
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? "127.0.0.1";

const app = Fastify({ logger: false });
const apollo = new ApolloServer({ typeDefs: "type Query { ok: Boolean }", introspection: false });
await apollo.start();
app.route({ url: "/graphql", method: ["GET", "POST"], handler: fastifyApolloHandler(apollo) });
app.get("/ready", async () => ({ ok: true }));

await app.listen({ port, host });

const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
