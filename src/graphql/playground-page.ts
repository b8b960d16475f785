import type { PlaygroundAssetUrls } from "./playground-assets";
import type { PlaygroundTab } from "./playground-examples";

const TITLE = "Aerogate GraphQL";

const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><text y='14' font-size='14'>✈</text></svg>",
)}`;

/** The key bar on top, GraphiQL filling the rest (its stylesheet sizes it to the whole window). */
const LAYOUT_CSS = `
body { margin: 0; height: 100vh; display: flex; flex-direction: column; font: 14px system-ui, sans-serif; }
#credentials { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; padding: 0.5rem 1rem; border-bottom: 1px solid #d0d4da; }
#credentials input { font: inherit; padding: 0.25rem 0.5rem; }
#credentials input[name="apiKey"] { width: 26em; }
#graphiql { flex: 1; min-height: 0; }
#graphiql .graphiql-container { height: 100%; width: 100%; }
#graphiql p { margin: 2rem; color: #555; }
`;

/** JSON that is safe inside a <script> element (no `</script>` can end it early). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * The playground page: a form for the API key (and, for the owner, the tenant to act for), an
 * empty GraphiQL area, and the same-origin scripts that open GraphiQL once a key is known. The
 * page itself is a few kilobytes; GraphiQL's bundle comes as separate cacheable assets.
 */
export function renderPlaygroundPage(urls: PlaygroundAssetUrls, tabs: PlaygroundTab[]): string {
  const config = {
    workerUrls: urls.workers,
    graphiql: { title: TITLE, endpoint: "/graphql", subscriptionsProtocol: "WS", shouldPersistHeaders: false, defaultTabs: tabs },
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${TITLE}</title>
    <link rel="icon" href="${FAVICON}" />
    <link rel="stylesheet" href="${urls.css}" />
    <style>${LAYOUT_CSS}</style>
  </head>
  <body>
    <form id="credentials" autocomplete="off">
      <label>API key <input name="apiKey" type="password" placeholder="sk_test_…, sk_live_… or sk_owner_…" required /></label>
      <label>Service-Tenant <input name="serviceTenant" placeholder="ten_… (owner key only)" /></label>
      <button type="submit">Use key</button>
      <button type="button" name="forget">Forget key</button>
    </form>
    <div id="graphiql"><p>Enter an API key to load the schema and run operations. It stays in this browser (localStorage).</p></div>
    <noscript>The playground needs JavaScript.</noscript>
    <script id="playground-config" type="application/json">${scriptJson(config)}</script>
    <script src="${urls.graphiql}"></script>
    <script src="${urls.client}"></script>
  </body>
</html>
`;
}
