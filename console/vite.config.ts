import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * The console's build (run by `npm install` through postinstall, or `npm run build:console`):
 * console/dist/index.html and console/dist/assets/<name>-<content hash>.{js,css}, which the
 * server serves under /console (src/http/console.routes.ts). Pages load as separate chunks, so
 * the first load carries only the shell and the sign-in page.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/console/",
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Every browser that runs ES2022 modules supports modulepreload natively.
    modulePreload: { polyfill: false },
    // Nothing inlined as data: URLs; the server's CSP allows images from 'self' and data: only.
    assetsInlineLimit: 0,
  },
  oxc: { jsx: { runtime: "automatic" } },
});
