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
import { SeatCatalogue } from "./seats/seat-catalogue";
import { SearchService } from "./search/search.service";
import { SupplierCalls } from "./supplier/supplier-calls";
import { simulatedSuppliers } from "./supplier/simulated-suppliers";
import { SupplierRegistry } from "./supplier/supplier-registry";
import { RoutedSupplier } from "./supplier/routed-supplier";
import { SupplierHealth, supplierStatRetention } from "./supplier/supplier-health";
import { FareCalendarService } from "./search/fare-calendar.service";
import { OfferCache } from "./search/offer-cache";
import { BatchOfferRequestService } from "./search/batch-offer-requests.service";
import { BatchArrivals } from "./search/batch-arrivals";
import { batchOfferRetention } from "./search/batch-offer-retention";
import { IdempotencyService, idempotencyRetention } from "./idempotency/idempotency.service";
import { WalletService } from "./wallet/wallet.service";
import { UnpaidHolds } from "./orders/payment/unpaid-holds";
import { OrderService } from "./orders/core/order.service";
import { OrderJobQueue } from "./orders/jobs/order-job-queue";
import { OrderJobRunner } from "./orders/jobs/order-job-runner";
import { JobWorker } from "./orders/jobs/job-worker";
import { AirlineJobs } from "./orders/jobs/airline-jobs";
import { TicketingService } from "./orders/payment/ticketing.service";
import { ServiceAdditionService } from "./orders/services/service-addition.service";
import { CancellationService } from "./orders/cancellation/cancellation.service";
import { OrderHistory } from "./orders/history/order-history";
import { OrderCommits } from "./orders/core/order-commits";
import { ChangeRequestService } from "./order-changes/change-requests.service";
import { ChangeConfirmationService } from "./order-changes/change-confirmations.service";
import { TicketReissue } from "./orders/jobs/ticket-reissue";
import { AirlineChangeService } from "./airline-changes/airline-changes.service";
import { OrderHolds } from "./orders/payment/hold-deadline";
import { HoldExpiry } from "./orders/payment/hold-expiry";
import { SeatCalls } from "./orders/recovery/seat-calls";
import { SeatIntents } from "./orders/recovery/seat-intents";
import { SeatReconciler } from "./orders/recovery/seat-recovery";
import { testPause } from "./test-pause";
import { WebhookDeliveryQueue } from "./events/webhook-delivery-queue";
import { WebhookDispatcher } from "./events/webhook-dispatcher";
import { WebhookDeliveryService } from "./events/webhook-deliveries.service";
import { OrderFeed } from "./orders/history/order-feed";
import { LiveConnections } from "./authentication/live-connections";
import { RetentionSweeper } from "./retention/retention-sweeper";
import type { RetentionRule } from "./retention/retention-rule";
import { searchRetention } from "./search/search-retention";
import { quoteRetention } from "./orders/cancellation/quote-retention";
import { changeRetention } from "./order-changes/change-retention";
import { webhookLogRetention } from "./events/webhook-log-retention";
import { WebhookEndpointService } from "./events/webhook-endpoints.service";
import { EventService } from "./events/events.service";
import { SupplierConnectionService } from "./supplier-connections/supplier-connections.service";
import { TokenCipher } from "./supplier-connections/token-cipher";
import { DuffelBookings } from "./duffel/duffel-bookings";
import { DuffelBookingReconciler } from "./duffel/duffel-booking-reconciler";
import { duffelBookingRetention } from "./duffel/duffel-booking-retention";
import { duffelAccounts } from "./supplier-connections/duffel-accounts";
import { DUFFEL_SUPPLIER, duffelRegistration } from "./duffel/duffel-registration";
import { DuffelOrderBooking } from "./orders/core/duffel-order-booking";

/**
 * Webhook attempts in flight at once per process. An attempt waiting on a receiver costs a socket
 * and a timer, so there are many, shared out per destination (events/destination-slots.ts): a
 * hundred receivers that never answer leave prompt ones room.
 */
const WEBHOOK_CONCURRENCY = 256;

/** Every domain service, built once per process by `createServices` and reached through the request context. */
export interface Services {
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
  /** Every supplier this process searches and books through, by id. */
  suppliers: SupplierRegistry;
  /** This process's calls to its suppliers: breakers, calls in flight, every call's outcome. */
  supplierCalls: SupplierCalls;
  /** Every supplier's health over the last five minutes, every process's calls together. */
  supplierHealth: SupplierHealth;
  search: SearchService;
  /** Searches answered a supplier's batch at a time to long-polled reads (docs/gateway.md#batch-offer-requests). */
  batchOfferRequests: BatchOfferRequestService;
  fareCalendar: FareCalendarService;
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
  /** Seat work asked of the airline and not yet seen through (seat intents). */
  seatIntents: SeatIntents;
  /** Gives back seats that a crashed or stalled process left held (abandoned seat intents). */
  seatReconciler: SeatReconciler;
  webhookQueue: WebhookDeliveryQueue;
  webhookDispatcher: WebhookDispatcher;
  webhookDeliveries: WebhookDeliveryService;
  /** The tenant's webhook endpoints: its default one (its webhook_url) and up to 16 more. */
  webhookEndpoints: WebhookEndpointService;
  /** The events API: the tenant's events as its webhooks carried them. */
  events: EventService;
  /** Tenants' own accounts with outside suppliers (Duffel), their tokens encrypted. */
  supplierConnections: SupplierConnectionService;
  /** Bookings asked of Duffel, keyed by the tenant's Idempotency-Key and found again after a crash (docs/duffel.md). */
  duffelBookings: DuffelBookings;
  /** Settles Duffel bookings a crashed process left unfinished: each becomes the order it was to be. */
  duffelBookingReconciler: DuffelBookingReconciler;
  orderFeed: OrderFeed;
  /** Per-key token buckets (REST requests, GraphQL operations by cost); null when RATE_LIMIT_RPS=0. */
  rateLimiter: RateLimiter | null;
  /** Removes what is past keeping, table by table (docs/retention.md). */
  retention: RetentionSweeper;
  /** Sandbox tenants' own clocks, moved ahead to see deadlines pass (docs/sandbox-clock.md). */
  sandboxClock: SandboxClockService;
}

/** Wires the domain services over an open, migrated database. */
export async function createServices(config: Config, db: Database, pubsub: PubSub, log: Logger): Promise<Services> {
  // The database's outages and full disk are logged once and summed up each second, not per failure.
  db.availability.reportTo(log);
  absorbErrors(log, db.availability);
  // Every process must sign cursors with the same secret, so it lives in the shared database.
  const { value: cursorSecret } = await sharedSetting(db, "cursor_secret", () => randomBytes(32).toString("hex"));
  const cursors = new CursorCodec(cursorSecret);
  const tenants = new TenantService(db, pubsub, cursors);
  const usageMeter = new UsageMeter(db, log, config.USAGE_FLUSH_MS);
  const airports = airportIndex();
  const offerCache = new OfferCache();
  const wallets = new WalletService(db, cursors);
  const callPolicy = { timeoutMs: config.SUPPLIER_CALL_TIMEOUT_MS, jobTimeoutMs: config.SUPPLIER_JOB_CALL_TIMEOUT_MS, retries: config.SUPPLIER_CALL_RETRIES, backoffMs: config.SUPPLIER_RETRY_BACKOFF_MS };
  const supplierCalls = new SupplierCalls({ failureThreshold: config.SUPPLIER_BREAKER_FAILURES, cooldownMs: config.SUPPLIER_BREAKER_COOLDOWN_SECONDS * 1000 });
  const pause = testPause(config.AEROGATE_TEST_PAUSE_AT);
  const supplierConnections = new SupplierConnectionService(db, TokenCipher.fromSetting(config.SUPPLIER_SECRETS_KEY));
  const duffelSettings = { baseUrl: config.DUFFEL_API_URL, timeoutMs: config.DUFFEL_TIMEOUT_MS };
  // Searches are under the fan-out's Duffel breaker; every other call's HTTP exchanges under the same breaker here.
  const duffelSearchAccounts = duffelAccounts(supplierConnections, duffelSettings);
  const duffelOrderAccounts = duffelAccounts(supplierConnections, { ...duffelSettings, breaker: (attempt) => supplierCalls.breaker(DUFFEL_SUPPLIER.id).run(attempt) });
  const duffelBookings = new DuffelBookings(db, duffelOrderAccounts, config.DUFFEL_TIMEOUT_MS, pause);
  const duffel = duffelRegistration({ accounts: duffelOrderAccounts, bookings: duffelBookings, airportByIata: (code) => airports.getByIata(code) }, duffelSearchAccounts, supplierCalls, callPolicy, log);
  const suppliers = new SupplierRegistry([...simulatedSuppliers(config, db, airports, supplierCalls, callPolicy, log), duffel]);
  const supplierHealth = new SupplierHealth(db, suppliers, supplierCalls, log, config.SUPPLIER_STATS_FLUSH_MS);
  // Every call after the search goes to the supplier that sold the flights it names.
  const supplier = new RoutedSupplier(suppliers);
  const offerLifetimes = { ttlMs: config.OFFER_TTL_SECONDS * 1000, retentionMs: config.OFFER_RETENTION_SECONDS * 1000 };
  const offers = new OfferService(db, cursors, offerCache, offerLifetimes);
  const orderCommits = new OrderCommits(db, pubsub, config.WEBHOOK_RETRY_SCHEDULE[0]! * 1000);
  const credentials = new CredentialResolver(db, pubsub, config.OWNER_API_KEY ? hashSecret(config.OWNER_API_KEY) : null);
  const tenantDirectory = new TenantDirectory(db, pubsub);
  const seatIntents = new SeatIntents(db, config.JOB_LEASE_SECONDS * 1000);
  const seatCalls = new SeatCalls(seatIntents, supplier);
  const jobQueue = new OrderJobQueue(db, config.JOB_LEASE_SECONDS * 1000);
  const holds = new OrderHolds(jobQueue, config.ORDER_HOLD_SECONDS);
  const seatCatalogue = new SeatCatalogue();
  const unpaidHolds = new UnpaidHolds(db);
  const duffelOrders = new DuffelOrderBooking(db, duffelBookings, holds, unpaidHolds, orderCommits);
  const orders = new OrderService(db, cursors, offers, wallets, orderCommits, seatCalls, seatCatalogue, holds, unpaidHolds, pause, duffelOrders);
  const holdExpiry = new HoldExpiry(db, jobQueue, orderCommits, seatCalls);
  const jobWorker = new JobWorker(jobQueue, new OrderJobRunner(db, supplier, jobQueue, orderCommits, config.JOB_MAX_ATTEMPTS, seatCalls, new TicketReissue(db, supplier), pause), holdExpiry, log, { pollMs: config.JOB_POLL_MS, availability: db.availability });
  // The airline works every job as slowly: tickets, refunds, EMDs and reissues come TICKETING_DELAY_MS after they are asked.
  const airlineJobs = new AirlineJobs(jobQueue, (runAt) => jobWorker.wake(runAt), config.TICKETING_DELAY_MS);
  // A delivery's lease outlasts its attempt (cut at WEBHOOK_TIMEOUT_MS) and the writing of its outcome.
  const webhookQueue = new WebhookDeliveryQueue(db, config.WEBHOOK_TIMEOUT_MS + config.JOB_LEASE_SECONDS * 1000);
  const webhookDispatcher = new WebhookDispatcher(
    { queue: webhookQueue, findTenant: (tenantId) => tenantDirectory.find(tenantId), tenantChanged: (tenantId) => tenants.invalidate(tenantId), log },
    {
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      pollMs: config.JOB_POLL_MS,
      maxConcurrent: WEBHOOK_CONCURRENCY,
      availability: db.availability,
    },
  );
  const orderChangeRequests = new ChangeRequestService(db, orders, suppliers, airports);
  const webhookDeliveries = new WebhookDeliveryService(db, cursors, webhookQueue, () => webhookDispatcher.wake());
  const search = new SearchService(db, suppliers, supplierCalls, airports, usageMeter, config.OFFER_TTL_SECONDS, offerCache);
  const retention = new RetentionSweeper(retentionRules(config, db), config.RETENTION_SWEEP_SECONDS * 1000, log, db.availability, () => clocksAhead(db));
  const tenantConfig = new TenantConfigService(db, tenants, wallets, config.WEBHOOK_ALLOW_PRIVATE_NETWORKS, suppliers.all.map((entry) => entry.id));
  // Every process hears every committed event: the one whose dispatcher claims it first sends it
  // (its deliveries are due on the process clock, the event being dated on its tenant's).
  orderCommits.onChange((change) => {
    if (change.event) webhookDispatcher.wake(new Date(clock.nowMs() + orderCommits.firstDeliveryDelayMs));
  });
  return {
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
    suppliers,
    supplierCalls,
    supplierHealth,
    search,
    batchOfferRequests: new BatchOfferRequestService(db, search, offers, new BatchArrivals(pubsub), offerLifetimes, log),
    fareCalendar: new FareCalendarService(suppliers.all, airports),
    offers,
    seatMaps: new SeatMapService(offers, orders, seatCatalogue, supplier),
    idempotency: new IdempotencyService(db, log),
    wallets,
    orders,
    ticketing: new TicketingService(db, orders, wallets, airlineJobs, orderCommits),
    serviceAdditions: new ServiceAdditionService(db, orders, wallets, seatCalls, seatCatalogue, airlineJobs, orderCommits, pause),
    cancellations: new CancellationService(db, cursors, orders, airlineJobs, orderCommits, (order, currency) => supplier.supplierQuote(order, currency), pause),
    orderHistory: new OrderHistory(db, cursors, orders),
    orderChangeRequests,
    airlineChanges: new AirlineChangeService(db, orders, wallets, supplier, suppliers, seatCalls, airports, orderCommits, pause),
    orderChangeConfirmations: new ChangeConfirmationService(db, orders, orderChangeRequests, wallets, seatCalls, airlineJobs, orderCommits, pause),
    jobQueue,
    jobWorker,
    holdExpiry,
    seatIntents,
    seatReconciler: new SeatReconciler(db, seatIntents, supplier, log, { pollMs: config.JOB_POLL_MS }),
    webhookQueue,
    webhookDispatcher,
    webhookDeliveries,
    webhookEndpoints: new WebhookEndpointService(db, cursors, tenantConfig, config.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
    events: new EventService(db, cursors, config.WEBHOOK_LOG_RETENTION_DAYS),
    supplierConnections,
    duffelBookings,
    duffelBookingReconciler: new DuffelBookingReconciler((limit) => duffelOrders.settleAbandoned(limit), log, { pollMs: config.JOB_POLL_MS, availability: db.availability }),
    orderFeed: new OrderFeed(orderCommits, orders, log, db),
    rateLimiter: createRateLimiter(config, db),
    retention,
    sandboxClock: new SandboxClockService(db, tenants, () => jobWorker.wake(clock.now())),
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
    supplierStatRetention(db),
    duffelBookingRetention(db, retentionMs),
    ...(buckets ? [buckets] : []),
  ];
}
