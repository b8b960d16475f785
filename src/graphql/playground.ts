import type { FastifyInstance, FastifyReply } from "fastify";
import { contentSecurityPolicy, sendPage } from "../http/page-security";
import { registerStaticAssets } from "../http/static-asset";
import { playgroundAssets } from "./playground-assets";
import { playgroundTabs } from "./playground-examples";
import { renderPlaygroundPage } from "./playground-page";
import { clock } from "../clock";

/**
 * The pages' policy, plus what GraphiQL needs: its stylesheet's fonts are data: URLs, and its
 * editor (Monaco) writes style elements and style attributes of its own (token colours, cursor,
 * line layout; refused, the editor shows no highlighting and misplaces its cursor). Scripts stay
 * this server's files only: an inline style can change how the page looks, never run anything.
 */
const CONTENT_SECURITY_POLICY = contentSecurityPolicy({ "style-src": ["'unsafe-inline'"], "font-src": ["data:"] });

/**
 * The browser playground at GET /graphql: a small page (rendered per visit so the example search
 * date stays ahead) and GraphiQL's assets under /graphql/playground/, compressed and cached.
 * Works with no network beyond this server. Registers the asset routes and returns what sends
 * the page, with the headers every page has (page-security.ts).
 */
export function registerPlayground(app: FastifyInstance): (reply: FastifyReply) => FastifyReply {
  const { urls, assets } = playgroundAssets();
  registerStaticAssets(app, assets);
  return (reply) => sendPage(reply, renderPlaygroundPage(urls, playgroundTabs(clock.now())), CONTENT_SECURITY_POLICY);
}
