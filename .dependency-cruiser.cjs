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
  // duffel/ speaks Duffel's API: its client, shapes, errors and bookings, beside the simulated airline.
  ["places and the airline", ["locations", "supplier", "duffel"]],
  // audit/ is what every configuration change writes in its own transaction; pricing/ the owner's fees, which search applies.
  ["domain", ["audit", "events", "authentication", "wallet", "tenants", "idempotency", "pricing", "search", "seats", "supplier-connections"]],
  ["orders", ["orders"]],
  // sandbox-clock/ moves a tenant's clock and, with it, the due times of its orders' queued work.
  // statements/ reads the ledger and orders: monthly statements and receipts, as JSON, CSV and PDF;
  // overview/ the owner's figures of the platform, from every module's rows.
  ["readers and changes of orders", ["order-changes", "airline-changes", "seat-maps", "usage", "sandbox-clock", "statements", "overview"]],
  ["wiring", ["services.ts"]],
  ["request context", ["context"]],
  // The GraphQL types codegen writes belong with the resolvers: they name resolver-parents.ts.
  ["transports", ["http", "rest", "graphql + generated/graphql.ts"]],
  ["composition", ["background-work.ts", "app.ts", "main.ts"]],
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The paths of a place: a file, or everything under a folder; "a + b" is both. */
const pattern = (place) => place.split(" + ").map((part) => (part.endsWith(".ts") ? `^src/${escape(part)}$` : `^src/${escape(part)}/`)).join("|");
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

module.exports = {
  forbidden: [
    ...layerRules,
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
