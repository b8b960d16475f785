// The model types every module names. Both generated clients have the same shapes (see
// prisma/models.prisma); the SQLite one is the canonical type source.
export type { Tenant, ApiKey, UsageCounter, Setting, OfferRequest, Order, OrderPassenger, OrderDocument, OrderStatus, OrderJob, WebhookAttempt, WebhookDeliveryStatus, WebhookEndpoint, AirlineCredit } from "../generated/prisma-sqlite/client";
export type { Prisma } from "../generated/prisma-sqlite/client";
