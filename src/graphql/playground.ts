import type { ApolloServerPlugin } from "@apollo/server";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";

/**
 * The browser playground at GET /graphql: GraphiQL rendered as one self-contained page (editor
 * and workers inlined), so it works with no network beyond this server. The key goes in the
 * headers editor, which is not persisted.
 */
export function playgroundPlugin(): ApolloServerPlugin {
  const html = renderGraphiQL({
    title: "Aerogate GraphQL",
    defaultQuery: "{\n  viewer {\n    kind\n    tenant { id name environment }\n  }\n}\n",
    headers: JSON.stringify({ authorization: "Bearer <your API key>" }, null, 2),
    shouldPersistHeaders: false,
    subscriptionsProtocol: "WS",
  });
  return {
    async serverWillStart() {
      return { async renderLandingPage() { return { html }; } };
    },
  };
}
