// The playground in the browser: GraphiQL opens only once an API key is known, so a fresh page
// sends nothing the server would refuse.
// - The key stays in this tab's sessionStorage (gone when the tab closes; older versions kept it
//   in localStorage, cleared here) and goes with every HTTP request (headers) and every WebSocket
//   connection (graphql-ws connection params); it never enters GraphiQL's headers editor, tabs
//   or history, which live in sessionStorage too.
// - A document that came with the page's link (`?query=`) opens in its own tab, but none of its
//   mutations or subscriptions runs until the person confirms it in a dialog naming it: a link
//   someone else wrote must not act with this person's key in one click.
(() => {
  const config = JSON.parse(document.getElementById("playground-config").textContent);
  const STORED = { apiKey: "aerogate.playground.apiKey", serviceTenant: "aerogate.playground.serviceTenant", linked: "aerogate.playground.linkedOperations" };
  const GRAPHIQL_PREFIX = "graphiql:";
  const form = document.getElementById("credentials");
  const { apiKey: apiKeyInput, serviceTenant: serviceTenantInput, forget } = form.elements;
  const container = document.getElementById("graphiql");
  let opened = false;

  for (const name of Object.keys(localStorage)) {
    if (name === STORED.apiKey || name === STORED.serviceTenant || name.startsWith(GRAPHIQL_PREFIX)) localStorage.removeItem(name);
  }

  /** GraphiQL's tabs, history and settings, for this tab only; clearing them keeps the key. */
  const graphiqlStorage = {
    getItem: (name) => sessionStorage.getItem(name),
    setItem: (name, value) => sessionStorage.setItem(name, value),
    removeItem: (name) => sessionStorage.removeItem(name),
    get length() {
      return Object.keys(sessionStorage).filter((name) => name.startsWith(GRAPHIQL_PREFIX)).length;
    },
    clear() {
      for (const name of Object.keys(sessionStorage)) if (name.startsWith(GRAPHIQL_PREFIX)) sessionStorage.removeItem(name);
    },
  };

  // The link's document is taken once and the address cleared, so a reload does not bring it back.
  const address = new URL(location.href);
  const linkQuery = address.searchParams.get("query");
  if (linkQuery !== null) {
    address.searchParams.delete("query");
    history.replaceState(history.state, "", address);
  }
  /** Fingerprints of the operations that came with a link in this tab: never run without asking. */
  const linked = new Set(JSON.parse(sessionStorage.getItem(STORED.linked) ?? "[]"));
  for (const operation of (linkQuery && PlaygroundOperations.operationsOf(linkQuery)) || []) linked.add(operation.fingerprint);
  sessionStorage.setItem(STORED.linked, JSON.stringify([...linked]));

  // Monaco starts its workers from these same-origin URLs.
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => config.workerUrls[label] };

  const dialog = document.getElementById("confirm-run");
  /** Asks the person whether to run a linked operation; resolves true only on "Run". */
  function confirmRun(operation) {
    const what = operation.name ? `${operation.kind} ${operation.name}` : `${operation.kind} (unnamed)`;
    dialog.querySelector("#confirm-run-title").textContent = `Run this ${operation.kind}?`;
    dialog.querySelector("#confirm-run-operation").textContent = `${what}: ${operation.fields.join(", ") || "no field named"}`;
    dialog.querySelector("#confirm-run-button").textContent = `Run ${what}`;
    dialog.returnValue = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "run"), { once: true });
      dialog.showModal();
    });
  }

  function fetcherFor(credentials) {
    const socketUrl = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${config.graphiql.endpoint}`;
    const sockets = graphqlWs.createClient({ url: socketUrl, connectionParams: credentials, lazy: true });
    return async (params, options) => {
      const operation = PlaygroundOperations.operationToRun(params.query, params.operationName);
      if (operation && operation.kind !== "query" && linked.has(operation.fingerprint) && !(await confirmRun(operation))) {
        return { errors: [{ message: `Not run: this ${operation.kind} came with the link that opened the page. Run it again and confirm to send it.` }] };
      }
      if (operation?.kind === "subscription") return sockets.iterate({ query: params.query, variables: params.variables ?? undefined, operationName: params.operationName ?? undefined });
      const response = await fetch(config.graphiql.endpoint, {
        method: "POST",
        headers: { ...options?.headers, "content-type": "application/json", accept: "application/graphql-response+json, application/json", ...credentials },
        body: JSON.stringify(params),
      });
      return response.headers.get("content-type")?.includes("json") ? response.json() : { errors: [{ message: `HTTP ${response.status}: ${await response.text()}` }] };
    };
  }

  function open(apiKey, serviceTenant) {
    const credentials = { authorization: `Bearer ${apiKey}` };
    if (serviceTenant) credentials["service-tenant"] = serviceTenant;
    const defaultTabs = linkQuery ? [{ query: linkQuery, variables: null }, ...config.graphiql.defaultTabs] : config.graphiql.defaultTabs;
    container.replaceChildren();
    YogaGraphiQL.renderYogaGraphiQL(container, {
      ...config.graphiql,
      defaultTabs,
      query: linkQuery ?? undefined,
      storage: graphiqlStorage,
      fetcher: fetcherFor(credentials),
      // Yoga's page writes the document being edited into the address; here the address carries none.
      onEditQuery: () => {},
    });
    opened = true;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const apiKey = apiKeyInput.value.trim();
    const serviceTenant = serviceTenantInput.value.trim();
    if (!apiKey) return;
    sessionStorage.setItem(STORED.apiKey, apiKey);
    if (serviceTenant) sessionStorage.setItem(STORED.serviceTenant, serviceTenant);
    else sessionStorage.removeItem(STORED.serviceTenant);
    // GraphiQL builds its fetcher once: other credentials take a fresh page.
    if (opened) location.reload();
    else open(apiKey, serviceTenant);
  });

  forget.addEventListener("click", () => {
    sessionStorage.removeItem(STORED.apiKey);
    sessionStorage.removeItem(STORED.serviceTenant);
    location.reload();
  });

  const apiKey = sessionStorage.getItem(STORED.apiKey);
  serviceTenantInput.value = sessionStorage.getItem(STORED.serviceTenant) ?? "";
  if (apiKey) {
    apiKeyInput.value = apiKey;
    open(apiKey, serviceTenantInput.value);
  } else apiKeyInput.focus();
})();
