import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { css, editorWorkerService, graphqlWorker, js, jsonWorker } from "@graphql-yoga/render-graphiql/graphiql";
import { staticAsset, type StaticAsset } from "../http/static-asset";

const PREFIX = "/graphql/playground";

/** graphql-ws's browser build (the package's exports hide it): the playground's subscriptions. */
const GRAPHQL_WS_BROWSER_BUILD = join(dirname(createRequire(import.meta.url).resolve("graphql-ws/package.json")), "umd", "graphql-ws.min.js");

/** Where the page finds each of its assets; workers by the label Monaco asks for. */
export interface PlaygroundAssetUrls {
  css: string;
  layout: string;
  graphiql: string;
  graphqlWs: string;
  operations: string;
  client: string;
  workers: { editorWorkerService: string; json: string; graphql: string };
}

/**
 * GraphiQL as @graphql-yoga/render-graphiql bundles it (React, GraphiQL, Monaco and its three
 * editor workers), graphql-ws's client, and our layout and scripts that open it, each as its own
 * file instead of one 9 MB page: the browser caches them, fetches a worker only when the editor
 * starts it, and runs no inline script (the page's policy allows none).
 */
export function playgroundAssets(): { urls: PlaygroundAssetUrls; assets: StaticAsset[] } {
  const own = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url));
  const files = {
    css: staticAsset(PREFIX, "graphiql.css", css),
    layout: staticAsset(PREFIX, "playground.css", own("playground.css")),
    graphiql: staticAsset(PREFIX, "graphiql.js", js),
    graphqlWs: staticAsset(PREFIX, "graphql-ws.js", readFileSync(GRAPHQL_WS_BROWSER_BUILD)),
    operations: staticAsset(PREFIX, "operations.js", own("playground-operations.js")),
    client: staticAsset(PREFIX, "playground.js", own("playground-client.js")),
    editorWorkerService: staticAsset(PREFIX, "editor.worker.js", editorWorkerService),
    json: staticAsset(PREFIX, "json.worker.js", jsonWorker),
    graphql: staticAsset(PREFIX, "graphql.worker.js", graphqlWorker),
  };
  return {
    urls: {
      css: files.css.url,
      layout: files.layout.url,
      graphiql: files.graphiql.url,
      graphqlWs: files.graphqlWs.url,
      operations: files.operations.url,
      client: files.client.url,
      workers: { editorWorkerService: files.editorWorkerService.url, json: files.json.url, graphql: files.graphql.url },
    },
    assets: Object.values(files),
  };
}
