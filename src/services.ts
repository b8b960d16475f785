import type { Config } from "./config";
import { CredentialResolver } from "./context/credential-resolver";
import { hashSecret } from "./context/api-key-secret";
import { TenantDirectory } from "./context/tenant-directory";
import type { Database } from "./db/database";
import { sharedSetting } from "./db/settings";
import type { PubSub } from "./events/pubsub";
import type { Logger } from "./logger";
import { CursorCodec } from "./pagination/cursor";
import { ApiKeyService } from "./tenants/api-key.service";
import { TenantConfigService } from "./tenants/tenant-config.service";
import { createRateLimiter, type RateLimiter } from "./rate-limits/rate-limiter";
import { TenantService } from "./tenants/tenant.service";
import { UsageMeter } from "./tenants/usage-meter";
import { UsageService } from "./tenants/usage.service";
import { randomBytes } from "node:crypto";
import { airportIndex, type AirportIndex } from "./locations/airport-index";
import { OfferService } from "./search/offer.service";
import { SeatMapService } from "./seats/seat-map.service";
import { SeatCatalogue } from "./seats/seat-catalogue";
import { SearchService } from "./search/search.service";
import { SimulatedAirline } from "./supplier/simulated-airline";
import { CachingSupplier } from "./supplier/caching-supplier";
import { OfferCache } from "./search/offer-cache";
import { IdempotencyService } from "./idempotency/idempotency.service";
import { WalletService } from "./wallet/wallet.service";
import { OrderService } from "./orders/order.service";
import { OrderJobQueue } from "./orders/order-job-queue";
import { OrderJobRunner } from "./orders/order-job-runner";
import { JobWorker } from "./orders/job-worker";
import { TicketingService } from "./orders/ticketing.service";
import { ServiceAdditionService } from "./orders/service-addition.service";
import { CancellationService } from "./orders/cancellation.service";
import { OrderHistory } from "./orders/order-history";
import { OrderChanges } from "./orders/order-changes";
import { ChangeRequestService } from "./order-changes/change-requests.service";
import { ChangeConfirmationService } from "./order-changes/change-confirmations.service";
import { TicketReissue } from "./order-changes/ticket-reissue";
import { AirlineChangeService } from "./airline-changes/airline-changes.service";
import { OrderHolds } from "./orders/holds";
import { HoldExpiry } from "./orders/hold-expiry";
import { SeatIntents } from "./orders/seat-intents";
import { SeatReconciler } from "./orders/seat-reconciler";
import { testPause } from "./test-pause";
import { WebhookDeliveryQueue } from "./events/webhook-delivery-queue";
import { WebhookDispatcher } from "./events/webhook-dispatcher";
import { WebhookDeliveryService } from "./events/webhook-deliveries.service";
import { WebhookEndpointService } from "./events/webhook-endpoints.service";
import { EventService } from "./events/events.service";
import { OrderFeed } from "./orders/order-feed";
import { LiveConnections } from "./context/live-connections";

/** Webhook attempts in flight at once per process: a few slow receivers leave room for the rest. */
const WEBHOOK_CONCURRENCY = 32;

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
  search: SearchService;
  offers: OfferService;
  seatMaps: SeatMapService;
  idempotency: IdempotencyService;
  wallets: WalletService;
  orders: OrderService;
  ticketing: TicketingService;
  /** Services added to booked orders (servicing §2). */
  serviceAdditions: ServiceAdditionService;
  /** Cancellation quotes and refunds. */
  cancellations: CancellationService;
  /** Each order's events, oldest first. */
  orderHistory: OrderHistory;
  /** Asking to change a ticketed order: the airline's priced offers (servicing §5). */
  orderChangeRequests: ChangeRequestService;
  /** Choosing and confirming an order change. */
  orderChangeConfirmations: ChangeConfirmationService;
  /** The airline's changes to booked flights, their acceptance and the sandbox trigger (servicing §6). */
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
  orderFeed: OrderFeed;
  /** Per-key token buckets (REST requests, GraphQL operations by cost); null when RATE_LIMIT_RPS=0. */
  rateLimiter: RateLimiter | null;
}

/** Wires the domain services over an open, migrated database. */
export async function createServices(config: Config, db: Database, pubsub: PubSub, log: Logger): Promise<Services> {
  // Every process must sign cursors with the same secret, so it lives in the shared database.
  const { value: cursorSecret } = await sharedSetting(db, "cursor_secret", () => randomBytes(32).toString("hex"));
  const cursors = new CursorCodec(cursorSecret);
  const tenants = new TenantService(db, pubsub, cursors);
  const usageMeter = new UsageMeter(db, log, config.USAGE_FLUSH_MS);
  const airports = airportIndex();
  const offerCache = new OfferCache();
  const wallets = new WalletService(db, cursors);
  const supplier = new CachingSupplier(new SimulatedAirline({ airportByIata: (code) => airports.getByIata(code), db, slowAnswerMs: 2 * config.JOB_LEASE_SECONDS * 1000 }));
  const offers = new OfferService(db, cursors, offerCache);
  const orderChanges = new OrderChanges(db, pubsub, config.WEBHOOK_RETRY_SCHEDULE[0]! * 1000);
  const credentials = new CredentialResolver(db, pubsub, config.OWNER_API_KEY ? hashSecret(config.OWNER_API_KEY) : null);
  const tenantDirectory = new TenantDirectory(db, pubsub);
  const seatIntents = new SeatIntents(db, config.JOB_LEASE_SECONDS * 1000);
  const jobQueue = new OrderJobQueue(db, config.JOB_LEASE_SECONDS * 1000);
  const holds = new OrderHolds(jobQueue, config.ORDER_HOLD_SECONDS);
  const seatCatalogue = new SeatCatalogue();
  const pause = testPause(config.AEROGATE_TEST_PAUSE_AT);
  const orders = new OrderService(db, cursors, offers, wallets, supplier, orderChanges, seatIntents, seatCatalogue, holds, pause);
  const holdExpiry = new HoldExpiry(db, supplier, jobQueue, orderChanges, seatIntents);
  const jobWorker = new JobWorker(jobQueue, new OrderJobRunner(db, supplier, jobQueue, orderChanges, config.JOB_MAX_ATTEMPTS, seatIntents, new TicketReissue(db, supplier), pause), holdExpiry, log, { pollMs: config.JOB_POLL_MS });
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
    },
  );
  const orderChangeRequests = new ChangeRequestService(db, orders, supplier, airports);
  const webhookDeliveries = new WebhookDeliveryService(db, cursors, webhookQueue, () => webhookDispatcher.wake());
  const tenantConfig = new TenantConfigService(db, tenants, wallets, config.WEBHOOK_ALLOW_PRIVATE_NETWORKS);
  // Every process hears every committed event: the one whose dispatcher claims it first sends it.
  orderChanges.onChange((change) => {
    if (change.event) webhookDispatcher.wake(new Date(Date.parse(change.event.createdAt) + orderChanges.firstDeliveryDelayMs));
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
    search: new SearchService(db, supplier, airports, usageMeter, config.OFFER_TTL_SECONDS, offerCache),
    offers,
    seatMaps: new SeatMapService(offers, orders, seatCatalogue, supplier),
    idempotency: new IdempotencyService(db, log),
    wallets,
    orders,
    ticketing: new TicketingService(db, orders, wallets, jobQueue, orderChanges, (runAt) => jobWorker.wake(runAt), config.TICKETING_DELAY_MS),
    serviceAdditions: new ServiceAdditionService(db, orders, wallets, supplier, seatCatalogue, jobQueue, orderChanges, (runAt) => jobWorker.wake(runAt), config.TICKETING_DELAY_MS, pause),
    cancellations: new CancellationService(db, cursors, orders, jobQueue, orderChanges, (runAt) => jobWorker.wake(runAt), config.TICKETING_DELAY_MS, pause),
    orderHistory: new OrderHistory(db, cursors, orders),
    orderChangeRequests,
    airlineChanges: new AirlineChangeService(db, orders, wallets, supplier, airports, orderChanges, pause),
    orderChangeConfirmations: new ChangeConfirmationService(db, orders, orderChangeRequests, wallets, supplier, jobQueue, orderChanges, (runAt) => jobWorker.wake(runAt), config.TICKETING_DELAY_MS, pause),
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
    orderFeed: new OrderFeed(orderChanges, orders, log),
    rateLimiter: createRateLimiter(config, db),
  };
}
