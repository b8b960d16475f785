import { clock } from "./clock";
import { clocksAhead } from "./tenancy/tenant-clock";
import { SandboxClockService } from "./sandbox-clock/sandbox-clock.service";
import type { Config } from "./config";
import { CredentialResolver } from "./authentication/credential-resolver";
import { hashSecret } from "./tenancy/api-key-secret";
import { TenantDirectory } from "./authentication/tenant-directory";
import type { Database } from "./db/database";
import { sharedSetting } from "./db/settings";
import type { PubSub } from "./events/pubsub";
import { absorbErrors, type Logger } from "./logger";
import { CursorCodec } from "./pagination/cursor";
import { ApiKeyService } from "./tenants/api-key.service";
import { TenantConfigService } from "./tenants/tenant-config.service";
import { createRateLimiter, rateLimitRetention, type RateLimiter } from "./rate-limits/rate-limiter";
import { TenantService } from "./tenants/tenant.service";
import { UsageMeter } from "./tenants/usage-meter";
import { UsageService } from "./usage/usage.service";
import { randomBytes } from "node:crypto";
import { airportIndex, type AirportIndex } from "./locations/airport-index";
import { OfferService } from "./search/offer.service";
import { SeatMapService } from "./seat-maps/seat-map.service";
import { SearchService } from "./search/search.service";
import { createGateway, type Gateway } from "./gateway/gateway";
import { SupplierHealth, supplierStatRetention } from "./gateway/health";
import { ACCOUNT_TOKENS, accountWebhooksOf, registeredConnectors } from "./composition/connectors";
import { ConnectionWebhookService } from "./gateway/connections/connection-webhooks.service";
import type { SupplierInboundRoute } from "./gateway/contract/connector";
import { FareCalendarService } from "./search/fare-calendar.service";
import { OfferCache } from "./search/offer-cache";
import { BatchOfferRequestService } from "./search/batch-offer-requests.service";
import { BatchArrivals } from "./search/batch-arrivals";
import { batchOfferRetention } from "./search/batch-offer-retention";
import { IdempotencyService, idempotencyRetention } from "./idempotency/idempotency.service";
import { WalletService } from "./wallet/wallet.service";
import { WalletEventNotices } from "./wallet/wallet-event-notices";
import { WalletFeed } from "./wallet/wallet-feed";
import { UnpaidHolds } from "./orders/payment/unpaid-holds";
import { OrderService } from "./orders/core/order.service";
import { OrderJobQueue } from "./orders/jobs/order-job-queue";
import { OrderJobRunner } from "./orders/jobs/order-job-runner";
import { JobWorker } from "./orders/jobs/job-worker";
import { AirlineJobs } from "./orders/jobs/airline-jobs";
import { TicketingService } from "./orders/payment/ticketing.service";
import { ServiceAdditionService } from "./orders/services/service-addition.service";
import { PaidServiceAdditions } from "./orders/services/paid-service-additions";
import { CancellationService } from "./orders/cancellation/cancellation.service";
import { OrderHistory } from "./orders/history/order-history";
import { AirlineCreditService } from "./orders/credits/airline-credits";
import { OrderCommits } from "./orders/core/order-commits";
import { openBeforeDeparture } from "./orders/core/order-subject";
import { ChangeRequestService } from "./order-changes/change-requests.service";
import { ChangeConfirmationService } from "./order-changes/change-confirmations.service";
import { TicketReissue } from "./orders/jobs/ticket-reissue";
import { AirlineChangeService } from "./airline-changes/airline-changes.service";
import { ReportedChangeReader } from "./airline-changes/reported-changes";
import { PollingLoop } from "./polling-loop";
import { OrderHolds } from "./orders/payment/hold-deadline";
import { HoldExpiry } from "./orders/payment/hold-expiry";
import { IntentCalls } from "./orders/recovery/intent-calls";
import { CallIntents } from "./orders/recovery/call-intents";
import { IntentReconciler } from "./orders/recovery/intent-reconciler";
import { testPause } from "./test-pause";
import { WebhookDeliveryQueue } from "./events/webhook-delivery-queue";
import { WebhookDispatcher } from "./events/webhook-dispatcher";
import { WebhookFormats } from "./events/webhook-formats";
import { WebhookDeliveryService } from "./events/webhook-deliveries.service";
import { OrderFeed } from "./orders/history/order-feed";
import { LiveConnections } from "./authentication/live-connections";
import { POSTGRES_BATCH_ROWS, RetentionSweeper } from "./retention/retention-sweeper";
import type { RetentionRule } from "./retention/retention-rule";
import { searchRetention } from "./search/search-retention";
import { quoteRetention } from "./orders/cancellation/quote-retention";
import { changeRetention } from "./order-changes/change-retention";
import { webhookLogRetention } from "./events/webhook-log-retention";
import { tenantEventRetention } from "./events/tenant-event-retention";
import { WebhookEndpointService } from "./events/webhook-endpoints.service";
import { EventService } from "./events/events.service";
import { PlatformAccountService } from "./gateway/connections/platform-accounts.service";
import { SupplierAccounts } from "./gateway/connections/supplier-accounts";
import { SupplierConnectionService } from "./gateway/connections/supplier-connections.service";
import { TokenCipher } from "./gateway/connections/token-cipher";
import { PricingRuleService } from "./pricing/pricing-rules.service";
import { AuditEventService } from "./audit/audit-events.service";
import { auditRetention } from "./audit/audit-retention";
import { StatementService } from "./statements/statements.service";
import { InvoiceService } from "./statements/invoices";
import { OverviewService } from "./overview/overview.service";

/**
 * Webhook attempts in flight at once per process. An attempt waiting on a receiver costs a socket
 * and a timer, so there are many, shared out per destination (events/destination-slots.ts): a
 * hundred receivers that never answer leave prompt ones room.
 */
const WEBHOOK_CONCURRENCY = 256;

/** Every domain service, built once per process by `createServices` and reached through the request context. */
export interface Services {
  /** What suppliers send us (their webhooks), served at `/suppliers/<supplier>/<path>`. */
  supplierInbound: ReadonlyArray<{ supplier: string; route: SupplierInboundRoute }>;
  /** Connectors' background reads of their suppliers (what webhooks that cannot reach us would tell). */
  supplierPolls: PollingLoop[];
  config: Config;
  db: Database;
  pubsub: PubSub;
  log: Logger;
  cursors: CursorCodec;
  credentials: CredentialResolver;
  tenantDirectory: TenantDirectory;
  /** Open graphql-ws connections, ended when their key or tenant no longer allows them. */
  liveConnections: LiveConnections;
  tenants: TenantService;
  apiKeys: ApiKeyService;
  tenantConfig: TenantConfigService;
  usageMeter: UsageMeter;
  usage: UsageService;
  airports: AirportIndex;
  /** The gateway: every supplier this process searches and books through, their calls piped, circuits and figures (docs/gateway.md). */
  gateway: Gateway;
  /** Every supplier's health over the last five minutes, every process's calls together. */
  supplierHealth: SupplierHealth;
  search: SearchService;
  /** Searches answered a supplier's batch at a time to long-polled reads (docs/gateway.md#batch-offer-requests). */
  batchOfferRequests: BatchOfferRequestService;
  fareCalendar: FareCalendarService;
  /** The owner's fees on offers (docs/running-the-platform.md#fees). */
  pricingRules: PricingRuleService;
  offers: OfferService;
  seatMaps: SeatMapService;
  idempotency: IdempotencyService;
  wallets: WalletService;
  orders: OrderService;
  ticketing: TicketingService;
  /** Services added to booked orders (docs/rest-api.md#services-after-booking). */
  serviceAdditions: ServiceAdditionService;
  /** Cancellation quotes and refunds. */
  cancellations: CancellationService;
  /** Each order's events, oldest first. */
  orderHistory: OrderHistory;
  airlineCredits: AirlineCreditService;
  /** Asking to change a ticketed order: the airline's priced offers (docs/rest-api.md#order-changes). */
  orderChangeRequests: ChangeRequestService;
  /** Choosing and confirming an order change. */
  orderChangeConfirmations: ChangeConfirmationService;
  /** The airline's changes to booked flights, their acceptance and the sandbox trigger (docs/rest-api.md#airline-initiated-changes). */
  airlineChanges: AirlineChangeService;
  jobQueue: OrderJobQueue;
  jobWorker: JobWorker;
  /** Cancels the holds whose deadlines came, a round's at once (the job worker's payment_deadline jobs). */
  holdExpiry: HoldExpiry;
  /** Supplier calls made and not yet seen through (call intents). */
  callIntents: CallIntents;
  /** Undoes or finishes the supplier calls a crashed or stalled process left (abandoned call intents). */
  intentReconciler: IntentReconciler;
  webhookQueue: WebhookDeliveryQueue;
  webhookDispatcher: WebhookDispatcher;
  /** Delivery formats besides ours, which the compatible APIs register as they are mounted. */
  webhookFormats: WebhookFormats;
  webhookDeliveries: WebhookDeliveryService;
  /** The tenant's webhook endpoints: its default one (its webhook_url) and up to 16 more. */
  webhookEndpoints: WebhookEndpointService;
  /** The events API: the tenant's events as its webhooks carried them. */
  events: EventService;
  /** Tenants' own accounts with suppliers that take one, their tokens encrypted. */
  supplierConnections: SupplierConnectionService;
  /** Tenants' connections' webhooks created at their suppliers, and removed with them. */
  connectionWebhooks: ConnectionWebhookService;
  platformAccounts: PlatformAccountService;
  supplierAccounts: SupplierAccounts;
  orderFeed: OrderFeed;
  walletFeed: WalletFeed;
  /** Per-key token buckets (REST requests, GraphQL operations by cost); null when RATE_LIMIT_RPS=0. */
  rateLimiter: RateLimiter | null;
  /** Removes what is past keeping, table by table (docs/retention.md). */
  retention: RetentionSweeper;
  /** Sandbox tenants' own clocks, moved ahead to see deadlines pass (docs/sandbox-clock.md). */
  sandboxClock: SandboxClockService;
  /** Reading the audit log; each configuration change writes its own event (docs/running-the-platform.md#audit-log). */
  auditEvents: AuditEventService;
  /** Monthly statements of a tenant's wallet (docs/running-the-platform.md#statements). */
  statements: StatementService;
  /** Receipts of ticketed orders. */
  invoices: InvoiceService;
  /** The owner's figures of the platform (docs/running-the-platform.md#overview). */
  overview: OverviewService;
}

/** Wires the domain services over an open, migrated database. */
export async function createServices(config: Config, db: Database, pubsub: PubSub, log: Logger): Promise<Services> {
  // The database's outages and full disk are logged once and summed up each second, not per failure.
  db.availability.reportTo(log);
  absorbErrors(log, db.availability);
  db.primary?.onSwitch((from, to) => log.warn({ database: db.availability.description, from, to }, "database primary moved; connections follow it"));
  // Every process must sign cursors with the same secret, so it lives in the shared database.
  const { value: cursorSecret } = await sharedSetting(db, "cursor_secret", () => randomBytes(32).toString("hex"));
  const cursors = new CursorCodec(cursorSecret);
  const airports = airportIndex();
  const tokenCipher = TokenCipher.fromSetting(config.SUPPLIER_SECRETS_KEY);
  const supplierConnections = new SupplierConnectionService(db, tokenCipher, ACCOUNT_TOKENS);
  const platformAccounts = new PlatformAccountService(db, tokenCipher, ACCOUNT_TOKENS);
  const supplierAccounts = new SupplierAccounts(db, supplierConnections, platformAccounts);
  // A supplier's webhook wakes the order's waiting ticketing, and has the airline changes it reports read (both bound below, once their services exist).
  let orderChanged: (orderId: string) => Promise<void> = async () => undefined;
  let airlineChanged: (orderId: string) => Promise<void> = async () => undefined;
  let orderCancelled: (orderId: string) => Promise<void> = async () => undefined;
  const orderSignals = { changed: (orderId: string) => orderChanged(orderId), airlineChanged: (orderId: string) => airlineChanged(orderId), cancelled: (orderId: string) => orderCancelled(orderId), open: (orderIds: readonly string[]) => openBeforeDeparture(db, orderIds) };
  const connectors = registeredConnectors({ config, db, airports, accounts: supplierAccounts, connections: supplierConnections, orderSignals });
  const supplierInbound = connectors.flatMap((connector) => (connector.inbound ?? []).map((route) => ({ supplier: connector.ref.id, route })));
  // Connectors sharing tables (the simulated airline's two profiles) name them once each.
  const connectorTables = [...new Map(connectors.flatMap((connector) => connector.tenantTables ?? []).map((table) => [table.table, table])).values()];
  const usageMeter = new UsageMeter(db, log, config.USAGE_FLUSH_MS);
  const offerCache = new OfferCache();
  const walletNotices = new WalletEventNotices(pubsub, config.WEBHOOK_RETRY_SCHEDULE[0]! * 1000);
  const wallets = new WalletService(db, cursors, walletNotices);
  const callPolicy = { timeoutMs: config.SUPPLIER_CALL_TIMEOUT_MS, jobTimeoutMs: config.SUPPLIER_JOB_CALL_TIMEOUT_MS, retries: config.SUPPLIER_CALL_RETRIES, backoffMs: config.SUPPLIER_RETRY_BACKOFF_MS };
  const pause = testPause(config.AEROGATE_TEST_PAUSE_AT);
  const gateway = createGateway(connectors, {
    breaker: { failureThreshold: config.SUPPLIER_BREAKER_FAILURES, cooldownMs: config.SUPPLIER_BREAKER_COOLDOWN_SECONDS * 1000 },
    policy: callPolicy,
    connected: (tenantId, supplier) => supplierAccounts.available(tenantId, supplier),
    log,
  });
  const supplierIds = gateway.registry.all.map((entry) => entry.ref.id);
  const accountSupplierIds = gateway.registry.all.flatMap((entry) => (entry.account ? [entry.ref.id] : []));
  const tenants = new TenantService(db, pubsub, cursors, supplierIds, accountSupplierIds, connectorTables);
  const supplierHealth = new SupplierHealth(db, gateway.registry.all.map((entry) => entry.ref), gateway.breakers, gateway.calls, log, config.SUPPLIER_STATS_FLUSH_MS);
  // Every call after the search goes to the supplier of the offer or order it concerns.
  const suppliers = gateway.orders;
  const offerLifetimes = { ttlMs: config.OFFER_TTL_SECONDS * 1000, retentionMs: config.OFFER_RETENTION_SECONDS * 1000 };
  const offers = new OfferService(db, cursors, offerCache, offerLifetimes);
  const orderCommits = new OrderCommits(db, pubsub, walletNotices);
  const credentials = new CredentialResolver(db, pubsub, config.OWNER_API_KEY ? hashSecret(config.OWNER_API_KEY) : null);
  const tenantDirectory = new TenantDirectory(db, pubsub);
  const callIntents = new CallIntents(db, config.JOB_LEASE_SECONDS * 1000);
  const calls = new IntentCalls(callIntents, suppliers.everySupplier);
  const paidAdditions = new PaidServiceAdditions(db, wallets, calls, suppliers, orderCommits, pause);
  const jobQueue = new OrderJobQueue(db, config.JOB_LEASE_SECONDS * 1000);
  const holds = new OrderHolds(jobQueue, config.ORDER_HOLD_SECONDS);
  const unpaidHolds = new UnpaidHolds(db);
  const orders = new OrderService(db, cursors, offers, wallets, orderCommits, calls, suppliers, holds, unpaidHolds, pause);
  const holdExpiry = new HoldExpiry(db, jobQueue, orderCommits, calls);
  const jobWorker = new JobWorker(jobQueue, new OrderJobRunner(db, suppliers, jobQueue, orderCommits, config.JOB_MAX_ATTEMPTS, calls, new TicketReissue(db, suppliers), pause), holdExpiry, log, { pollMs: config.JOB_POLL_MS, availability: db.availability });
  orderChanged = async (orderId) => {
    // A ticketing waiting on the supplier, or a booking it has still to confirm.
    const runAt = (await jobQueue.runNow(orderId, "ticket")) ?? (await jobQueue.runNow(orderId, "confirm_booking"));
    if (runAt) jobWorker.wake(runAt);
  };
  // The airline works every job as slowly: tickets, refunds, EMDs and reissues come TICKETING_DELAY_MS after they are asked.
  const airlineJobs = new AirlineJobs(jobQueue, (runAt) => jobWorker.wake(runAt), config.TICKETING_DELAY_MS);
  // A delivery's lease outlasts its attempt (cut at WEBHOOK_TIMEOUT_MS) and the writing of its outcome.
  const webhookQueue = new WebhookDeliveryQueue(db, config.WEBHOOK_TIMEOUT_MS + config.JOB_LEASE_SECONDS * 1000);
  const webhookFormats = new WebhookFormats();
  const webhookDispatcher = new WebhookDispatcher(
    { queue: webhookQueue, findTenant: (tenantId) => tenantDirectory.find(tenantId), tenantChanged: (tenantId) => tenants.invalidate(tenantId), log, formats: webhookFormats },
    {
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      pollMs: config.JOB_POLL_MS,
      maxConcurrent: WEBHOOK_CONCURRENCY,
      availability: db.availability,
    },
  );
  const orderChangeRequests = new ChangeRequestService(db, orders, gateway.searches, suppliers, airports);
  const webhookDeliveries = new WebhookDeliveryService(db, cursors, webhookQueue, () => webhookDispatcher.wake());
  const pricingRules = new PricingRuleService(db, pubsub, cursors, { supplierIds, airports });
  const search = new SearchService(db, gateway.searches, airports, usageMeter, config.OFFER_TTL_SECONDS, offerCache, pricingRules);
  const connectorRetention = connectors.flatMap((connector) => connector.retention ?? []);
  const retention = new RetentionSweeper([...retentionRules(config, db), ...connectorRetention], config.RETENTION_SWEEP_SECONDS * 1000, log, db.availability, () => clocksAhead(db), db.provider === "postgresql" ? POSTGRES_BATCH_ROWS : undefined);
  const tenantConfig = new TenantConfigService(db, tenants, wallets, config.WEBHOOK_ALLOW_PRIVATE_NETWORKS, supplierIds);
  // Every process hears every committed event: the one whose dispatcher claims it first sends it
  // (its deliveries are due on the process clock, the event being dated on its tenant's).
  orderCommits.onChange((change) => {
    if (change.event) webhookDispatcher.wake(new Date(clock.nowMs() + orderCommits.firstDeliveryDelayMs));
  });
  walletNotices.onEvent(() => webhookDispatcher.wake(new Date(clock.nowMs() + walletNotices.firstDeliveryDelayMs)));
  const airlineChanges = new AirlineChangeService(db, orders, wallets, suppliers, gateway.searches, calls, airports, orderCommits, pause);
  const reportedChanges = new ReportedChangeReader(db, suppliers, orderCommits, (subject, change) => airlineChanges.applyAccepted(subject, change), log);
  airlineChanged = (orderId) => reportedChanges.read(orderId);
  const cancellations = new CancellationService(db, cursors, orders, airlineJobs, orderCommits, suppliers, pause);
  orderCancelled = async (orderId) => {
    // The supplier repeats its webhook until answered: a failure here is answered (logged), and a repeat reads again.
    const outcome = await cancellations.cancelledAtSupplier(orderId).catch((error: unknown) => log.warn({ err: error, orderId }, "an order cancelled at its supplier could not be read; a repeat of the webhook reads it again"));
    if (outcome === "ticketing") log.info({ orderId }, "the supplier cancelled an order being ticketed here: its ticketing finds it cancelled and fails it");
  };
  const supplierPolls = connectors.flatMap((connector) => connector.polls ?? []).map((poll) => new PollingLoop(poll.round, poll.everyMs, (error) => log.warn({ err: error, poll: poll.name }, "a supplier poll failed"), db.availability));
  return {
    supplierPolls,
    supplierInbound,
    config,
    db,
    pubsub,
    log,
    cursors,
    credentials,
    tenantDirectory,
    liveConnections: new LiveConnections(pubsub, credentials, tenantDirectory, log),
    tenants,
    apiKeys: new ApiKeyService(db, pubsub, cursors, tenants),
    tenantConfig,
    usageMeter,
    usage: new UsageService(db, usageMeter, tenants, orders, wallets, webhookDeliveries),
    airports,
    gateway,
    supplierHealth,
    search,
    batchOfferRequests: new BatchOfferRequestService(db, search, offers, new BatchArrivals(pubsub), offerLifetimes, log),
    fareCalendar: new FareCalendarService(gateway.searches.fareSources(), airports, pricingRules),
    pricingRules,
    offers,
    seatMaps: new SeatMapService(offers, orders, suppliers),
    idempotency: new IdempotencyService(db, log),
    wallets,
    orders,
    ticketing: new TicketingService(db, orders, wallets, airlineJobs, orderCommits, suppliers),
    serviceAdditions: new ServiceAdditionService(db, orders, wallets, calls, suppliers, airlineJobs, orderCommits, paidAdditions, pause),
    cancellations,
    orderHistory: new OrderHistory(db, cursors, orders),
    airlineCredits: new AirlineCreditService(db, cursors),
    orderChangeRequests,
    airlineChanges,
    orderChangeConfirmations: new ChangeConfirmationService(db, orders, orderChangeRequests, wallets, calls, suppliers, airlineJobs, orderCommits, pause),
    jobQueue,
    jobWorker,
    holdExpiry,
    callIntents,
    intentReconciler: new IntentReconciler(db, callIntents, suppliers.everySupplier, log, { pollMs: config.JOB_POLL_MS }, (intent, environment) => paidAdditions.rollForward(intent, environment)),
    webhookQueue,
    webhookDispatcher,
    webhookFormats,
    webhookDeliveries,
    webhookEndpoints: new WebhookEndpointService(db, cursors, tenantConfig, config.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
    events: new EventService(db, cursors, config.WEBHOOK_LOG_RETENTION_DAYS),
    supplierConnections,
    connectionWebhooks: new ConnectionWebhookService(supplierConnections, accountWebhooksOf(connectors), config.PUBLIC_URL, log),
    platformAccounts,
    supplierAccounts,
    orderFeed: new OrderFeed(orderCommits, orders, log, db),
    walletFeed: new WalletFeed(walletNotices, wallets, log),
    rateLimiter: createRateLimiter(config, db),
    retention,
    sandboxClock: new SandboxClockService(db, tenants, () => jobWorker.wake(clock.now())),
    auditEvents: new AuditEventService(db, cursors),
    statements: new StatementService(db, wallets),
    invoices: new InvoiceService(orders, wallets),
    overview: new OverviewService(db, usageMeter),
  };
}

/** Every table that grows with traffic and is not kept for good (docs/retention.md has the whole list). */
function retentionRules(config: Config, db: Database): RetentionRule[] {
  const retentionMs = config.OFFER_RETENTION_SECONDS * 1000;
  const buckets = rateLimitRetention(config, db);
  return [
    searchRetention(db, retentionMs),
    ...batchOfferRetention(db, retentionMs),
    changeRetention(db, retentionMs),
    quoteRetention(db, retentionMs),
    idempotencyRetention(db),
    webhookLogRetention(db, config.WEBHOOK_LOG_RETENTION_DAYS),
    tenantEventRetention(db, config.WEBHOOK_LOG_RETENTION_DAYS),
    supplierStatRetention(db),
    auditRetention(db, config.AUDIT_RETENTION_DAYS),
    ...(buckets ? [buckets] : []),
  ];
}
