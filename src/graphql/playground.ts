import type { ApolloServerPlugin } from "@apollo/server";
import type { FastifyInstance } from "fastify";
import { registerStaticAssets } from "../http/static-asset";
import { playgroundAssets } from "./playground-assets";
import { playgroundTabs } from "./playground-examples";
import { renderPlaygroundPage } from "./playground-page";
import { clock } from "../clock";

/**
 * The browser playground at GET /graphql: a small page (Apollo's landing page hook, rendered per
 * visit so the example search date stays ahead) and GraphiQL's assets under /graphql/playground/,
 * compressed and cached. Works with no network beyond this server. Registers the asset routes
 * and returns the Apollo plugin that serves the page.
 */
export function registerPlayground(app: FastifyInstance): ApolloServerPlugin {
  const { urls, assets } = playgroundAssets();
  registerStaticAssets(app, assets);
  return {
    async serverWillStart() {
      return { async renderLandingPage() { return { html: async () => renderPlaygroundPage(urls, playgroundTabs(clock.now())) }; } };
    },
  };
}
