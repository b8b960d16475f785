import { readFileSync } from "node:fs";
import { css, editorWorkerService, graphqlWorker, js, jsonWorker } from "@graphql-yoga/render-graphiql/graphiql";
import { staticAsset, type StaticAsset } from "../http/static-asset";

const PREFIX = "/graphql/playground";

/** Where the page finds each of its assets; workers by the label Monaco asks for. */
export interface PlaygroundAssetUrls {
  css: string;
  graphiql: string;
  client: string;
  workers: { editorWorkerService: string; json: string; graphql: string };
}

/**
 * GraphiQL as @graphql-yoga/render-graphiql bundles it (React, GraphiQL, Monaco and its three
 * editor workers), plus our script that opens it, each as its own file instead of one 9 MB page:
 * the browser caches them, and fetches a worker only when the editor starts it.
 */
export function playgroundAssets(): { urls: PlaygroundAssetUrls; assets: StaticAsset[] } {
  const client = readFileSync(new URL("./playground-client.js", import.meta.url));
  const files = {
    css: staticAsset(PREFIX, "graphiql.css", css),
    graphiql: staticAsset(PREFIX, "graphiql.js", js),
    client: staticAsset(PREFIX, "playground.js", client),
    editorWorkerService: staticAsset(PREFIX, "editor.worker.js", editorWorkerService),
    json: staticAsset(PREFIX, "json.worker.js", jsonWorker),
    graphql: staticAsset(PREFIX, "graphql.worker.js", graphqlWorker),
  };
  return {
    urls: {
      css: files.css.url,
      graphiql: files.graphiql.url,
      client: files.client.url,
      workers: { editorWorkerService: files.editorWorkerService.url, json: files.json.url, graphql: files.graphql.url },
    },
    assets: Object.values(files),
  };
}
