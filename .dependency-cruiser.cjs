// `npm run check:layers`: imports in src/ follow the layers of docs/architecture.md#layers.
//
// LAYERS lists every place in src/ from the bottom up: a folder (its files and subfolders) or a
// file at the top of src/. A place may import itself and any place listed before it, never one
// listed after it, so no two folders can import each other (no folder loop) and nothing looks up
// past its layer. Type-only imports count, as in check:circles. A file of src/ that no entry
// names fails the check too: a new folder takes its place in the table, and in the docs' table.
//
// There are no exceptions: an import against the layers is answered by moving code to the layer
// it belongs to, or by turning the dependency around, not by listing it here.

/** [layer, places from the bottom up]; the layers are only names for docs/architecture.md. */
const LAYERS = [
  ["generated clients", ["generated/prisma-sqlite", "generated/prisma-postgres"]],
  [
    "foundation",
    [
      "errors",
      "clock.ts",
      "logger.ts",
      "recent-map.ts",
      "ids.ts",
      "versioned-cache.ts",
      "test-pause.ts",
      "config.ts",
      "money",
      "validation",
      "pagination",
      "geo",
      "time",
      "db",
      // Background loops wait out a database outage (db/availability.ts).
      "polling-loop.ts",
      // What each growing table keeps, and the sweep that removes the rest in the background.
      "retention",
      "tenancy",
      "rate-limits",
    ],
  ],
  // The suppliers' contract (docs/connectors.md): what the domain and every connector speak.
  ["places and the contract", ["locations", "gateway/contract"]],
  // audit/ is what every configuration change writes in its own transaction; pricing/ the owner's fees, which search applies.
  ["domain", ["audit", "events", "authentication", "wallet", "tenants", "idempotency", "pricing", "search"]],
  ["orders", ["orders"]],
  // sandbox-clock/ moves a tenant's clock and, with it, the due times of its orders' queued work.
  // statements/ reads the ledger and orders: monthly statements and receipts, as JSON, CSV and PDF;
  // overview/ the owner's figures of the platform, from every module's rows.
  ["readers and changes of orders", ["order-changes", "airline-changes", "seat-maps", "usage", "sandbox-clock", "statements", "overview"]],
  // The gateway implements the contract the domain holds: registry, router, fan-out, pipeline, health, connections.
  ["gateway", ["gateway - gateway/contract"]],
  // One folder per supplier; none imports another's (CONNECTOR_RULES).
  ["connectors", ["connectors"]],
  // composition/ lists the connectors, the one place outside their folders that names them.
  ["wiring", ["composition", "services.ts"]],
  ["request context", ["context"]],
  // The GraphQL types codegen writes belong with the resolvers: they name resolver-parents.ts.
  // compat/ holds other vendors' API shapes over the same domain (the Duffel-compatible surface), rendered with rest/'s views.
  ["transports", ["http", "rest", "compat", "graphql + generated/graphql.ts"]],
  ["process", ["background-work.ts", "app.ts", "main.ts"]],
];

/** The domain: the layers between the contract and the gateway, which hold the contract (gateway/contract) and nothing else of the gateway. */
const DOMAIN = ["domain", "orders", "readers and changes of orders"];
/** The composition root: the only place outside a connector's folder that may name it. */
const COMPOSITION_ROOT = ["^src/composition/", "^src/services\\.ts$"];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The paths of one part of a place: a file, or everything under a folder. */
const partPattern = (part) => (part.endsWith(".ts") ? `^src/${escape(part)}$` : `^src/${escape(part)}/`);
/**
 * The paths of a place: "a + b" is both parts; "a - b c" is a folder without the subfolders
 * listed after the dash (each a place of its own).
 */
const pattern = (place) => {
  const [included, excluded] = place.split(" - ");
  const paths = included.split(" + ").map(partPattern).join("|");
  if (!excluded) return paths;
  return `^(?!${excluded.split(" ").map((part) => partPattern(part).slice(1)).join("|")})(?:${paths})`;
};
const places = LAYERS.flatMap(([layer, names]) => names.map((name) => ({ layer, name })));

const layerRules = places.map(({ layer, name }, index) => {
  const above = places.slice(index + 1).map((place) => pattern(place.name));
  return {
    name: `layers: ${name}`,
    severity: "error",
    comment: `${name} (${layer}) may import only what the layer table lists before it (.dependency-cruiser.cjs, docs/architecture.md#layers).`,
    from: { path: pattern(name) },
    to: { path: above.length > 0 ? above : "^$" },
  };
});

const domainPaths = places.filter((place) => DOMAIN.includes(place.layer)).map((place) => pattern(place.name));

/**
 * The gateway's rules (docs/connectors.md#the-rules), beside the layers: a supplier's code stays in
 * its connector's folder, which only the composition root names; a connector speaks the
 * contract (and the gateway's parts, foundation and places), never the domain; and the domain
 * holds the contract alone, whatever the gateway does behind it.
 */
const gatewayRules = [
  {
    name: "connectors: only the composition root imports one",
    severity: "error",
    comment: "A connector's folder is imported by the composition root (src/composition/, src/services.ts) alone: everything else speaks the contract (src/gateway/contract/).",
    from: { path: "^src/", pathNot: ["^src/connectors/", ...COMPOSITION_ROOT] },
    to: { path: "^src/connectors/" },
  },
  {
    name: "connectors: none imports another",
    severity: "error",
    comment: "A connector's code is its folder's own: what two connectors share belongs to the contract or the gateway.",
    from: { path: "^src/connectors/([^/]+)/" },
    to: { path: "^src/connectors/", pathNot: "^src/connectors/$1/" },
  },
  {
    name: "connectors: never the domain",
    severity: "error",
    comment: "A connector answers the contract; it never reaches into the domain (search, orders, their readers).",
    from: { path: "^src/connectors/" },
    to: { path: domainPaths },
  },
  {
    name: "domain: the gateway's contract only",
    severity: "error",
    comment: "The domain holds the gateway through its contract (src/gateway/contract/), never its registry, router, pipeline or connections.",
    from: { path: domainPaths },
    to: { path: "^src/gateway/", pathNot: "^src/gateway/contract/" },
  },
];

module.exports = {
  forbidden: [
    ...layerRules,
    ...gatewayRules,
    {
      name: "layers: every place listed",
      severity: "error",
      comment: "Every file of src/ belongs to a place of the layer table: add a new folder to LAYERS (and to docs/architecture.md#layers).",
      from: { path: "^src/", pathNot: places.map((place) => pattern(place.name)) },
      to: {},
    },
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
