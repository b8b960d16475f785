import type { PlaygroundAssetUrls } from "./playground-assets";
import type { PlaygroundTab } from "./playground-examples";

const TITLE = "Aerogate GraphQL";

const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><text y='14' font-size='14'>✈</text></svg>",
)}`;

/** JSON that is safe inside a <script> element (no `</script>` can end it early). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * The playground page: a form for the API key (and, for the owner, the tenant to act for), an
 * empty GraphiQL area, the dialog that asks before an operation that came with the page's link
 * is run, and the same-origin scripts that open GraphiQL once a key is known. No inline script
 * or style: the configuration is a JSON data block. The page itself is a few kilobytes;
 * GraphiQL's bundle comes as separate cacheable assets.
 */
export function renderPlaygroundPage(urls: PlaygroundAssetUrls, tabs: PlaygroundTab[]): string {
  const config = {
    workerUrls: urls.workers,
    graphiql: { title: TITLE, endpoint: "/graphql", shouldPersistHeaders: false, defaultTabs: tabs },
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${TITLE}</title>
    <link rel="icon" href="${FAVICON}" />
    <link rel="stylesheet" href="${urls.css}" />
    <link rel="stylesheet" href="${urls.layout}" />
  </head>
  <body>
    <form id="credentials" autocomplete="off">
      <label>API key <input name="apiKey" type="password" placeholder="sk_test_…, sk_live_… or sk_owner_…" required /></label>
      <label>Service-Tenant <input name="serviceTenant" placeholder="ten_… (owner key only)" /></label>
      <button type="submit">Use key</button>
      <button type="button" name="forget">Forget key</button>
    </form>
    <div id="graphiql"><p>Enter an API key to load the schema and run operations. It stays in this browser tab only (sessionStorage), until the tab is closed.</p></div>
    <dialog id="confirm-run" aria-labelledby="confirm-run-title">
      <h2 id="confirm-run-title"></h2>
      <p>It came with the link that opened this page, not from you, and it acts with your API key.</p>
      <code id="confirm-run-operation"></code>
      <form method="dialog" class="actions">
        <button value="cancel" autofocus>Don't run</button>
        <button value="run" class="danger" id="confirm-run-button"></button>
      </form>
    </dialog>
    <noscript>The playground needs JavaScript.</noscript>
    <script id="playground-config" type="application/json">${scriptJson(config)}</script>
    <script src="${urls.graphiql}"></script>
    <script src="${urls.graphqlWs}"></script>
    <script src="${urls.operations}"></script>
    <script src="${urls.client}"></script>
  </body>
</html>
`;
}
