import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";

/** Swagger UI's files, served from node_modules: the page needs nothing beyond this server. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Aerogate REST API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io. */
const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#reference", deepLinking: true, validatorUrl: null, tryItOutEnabled: false });\n`;

/**
 * GET /docs: a browsable reference of /openapi.json (Swagger UI), public like the document.
 * The assets are read once, at the first request for each.
 */
export function registerDocsRoutes(app: FastifyInstance): void {
  const loaded = new Map<string, Buffer>();
  app.get("/docs", async (_request, reply) => reply.type("text/html; charset=utf-8").send(PAGE));
  app.get("/docs/init.js", async (_request, reply) => reply.type("text/javascript; charset=utf-8").send(INIT));
  for (const [name, contentType] of Object.entries(ASSETS)) {
    app.get(`/docs/${name}`, async (_request, reply) => {
      let body = loaded.get(name);
      if (!body) loaded.set(name, (body = readFileSync(join(SWAGGER_UI_DIR, name))));
      return reply.type(contentType).header("cache-control", "public, max-age=3600").send(body);
    });
  }
}
