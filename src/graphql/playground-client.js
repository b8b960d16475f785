// The playground in the browser: GraphiQL opens only once an API key is known, so a fresh page
// sends nothing the server would refuse. The key stays in this browser's localStorage and goes
// with every HTTP request (headers) and every WebSocket connection (graphql-ws connection params);
// it never enters GraphiQL's own headers editor, tabs or history.
(() => {
  const config = JSON.parse(document.getElementById("playground-config").textContent);
  const stored = { apiKey: "aerogate.playground.apiKey", serviceTenant: "aerogate.playground.serviceTenant" };
  const form = document.getElementById("credentials");
  const { apiKey: apiKeyInput, serviceTenant: serviceTenantInput, forget } = form.elements;
  const container = document.getElementById("graphiql");
  let opened = false;

  // Monaco starts its workers from these same-origin URLs.
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => config.workerUrls[label] };

  function open(apiKey, serviceTenant) {
    const credentials = { authorization: `Bearer ${apiKey}` };
    if (serviceTenant) credentials["service-tenant"] = serviceTenant;
    container.replaceChildren();
    YogaGraphiQL.renderYogaGraphiQL(container, { ...config.graphiql, additionalHeaders: credentials, connectionParams: credentials });
    opened = true;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const apiKey = apiKeyInput.value.trim();
    const serviceTenant = serviceTenantInput.value.trim();
    if (!apiKey) return;
    localStorage.setItem(stored.apiKey, apiKey);
    if (serviceTenant) localStorage.setItem(stored.serviceTenant, serviceTenant);
    else localStorage.removeItem(stored.serviceTenant);
    // GraphiQL builds its fetcher once: other credentials take a fresh page.
    if (opened) location.reload();
    else open(apiKey, serviceTenant);
  });

  forget.addEventListener("click", () => {
    localStorage.removeItem(stored.apiKey);
    localStorage.removeItem(stored.serviceTenant);
    location.reload();
  });

  const apiKey = localStorage.getItem(stored.apiKey);
  serviceTenantInput.value = localStorage.getItem(stored.serviceTenant) ?? "";
  if (apiKey) {
    apiKeyInput.value = apiKey;
    open(apiKey, serviceTenantInput.value);
  } else apiKeyInput.focus();
})();
