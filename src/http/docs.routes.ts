import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";
import { contentSecurityPolicy, sendPage } from "./page-security";
import { registerStaticAssets, staticAsset } from "./static-asset";

/** Swagger UI's files, served from node_modules: the page needs nothing beyond this server. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS_PREFIX = "/docs/assets";

/** validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io. */
const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#reference", deepLinking: true, validatorUrl: null, tryItOutEnabled: false });\n`;

/** Swagger UI needs nothing beyond the pages' own policy. */
const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * GET /docs: a browsable reference of /openapi.json (Swagger UI), public like the document. Its
 * files are static assets (static-asset.ts): content-hashed URLs, compressed as the browser
 * accepts (Swagger UI's 1.4 MB bundle is ~0.4 MB in brotli) and cacheable for good.
 */
export function registerDocsRoutes(app: FastifyInstance): void {
  const swaggerFile = (name: string) => staticAsset(ASSETS_PREFIX, name, readFileSync(join(SWAGGER_UI_DIR, name)));
  const css = swaggerFile("swagger-ui.css");
  const bundle = swaggerFile("swagger-ui-bundle.js");
  const init = staticAsset(ASSETS_PREFIX, "init.js", INIT);
  registerStaticAssets(app, [css, bundle, init]);
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Aerogate REST API reference</title>
<link rel="stylesheet" href="${css.url}">
</head>
<body>
<div id="reference"></div>
<script src="${bundle.url}"></script>
<script src="${init.url}"></script>
</body>
</html>
`;
  app.get("/docs", async (_request, reply) => sendPage(reply, page, CONTENT_SECURITY_POLICY));
}
