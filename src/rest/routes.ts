import type { RestRoute } from "./route";
import { tenantConfigRoutes } from "./tenant-config.routes";
import { tenantRoutes } from "./tenants.routes";
import { supplierRoutes } from "./suppliers.routes";
import { locationRoutes } from "./locations.routes";
import { offerRoutes } from "./offers.routes";
import { seatMapRoutes } from "./seat-maps.routes";
import { searchRoutes } from "./search.routes";
import { batchOfferRequestRoutes } from "./batch-offer-requests.routes";
import { orderRoutes } from "./orders.routes";
import { orderServiceRoutes } from "./order-services.routes";
import { paymentRoutes } from "./payments.routes";
import { orderChangeRoutes } from "./order-changes.routes";
import { cancellationRoutes } from "./cancellations.routes";
import { airlineChangeRoutes } from "./airline-changes.routes";
import { orderHistoryRoutes } from "./order-history.routes";
import { walletRoutes } from "./wallet.routes";
import { webhookRoutes } from "./webhooks.routes";
import { webhookEndpointRoutes } from "./webhook-endpoints.routes";
import { supplierConnectionRoutes } from "./supplier-connections.routes";
import { eventRoutes } from "./events.routes";
import { fareCalendarRoutes } from "./fare-calendar.routes";
import { sandboxClockRoutes } from "./sandbox-clock.routes";
import { pricingRuleRoutes } from "./pricing-rules.routes";
import { auditEventRoutes } from "./audit-events.routes";
import { statementRoutes } from "./statements.routes";

/** Every `/v1` route: registered by the app and described by /openapi.json from this one list. */
export const restRoutes: ReadonlyArray<RestRoute<any, any, any>> = [...tenantRoutes, ...tenantConfigRoutes, ...locationRoutes, ...searchRoutes, ...batchOfferRequestRoutes, ...fareCalendarRoutes, ...offerRoutes, ...seatMapRoutes, ...orderRoutes, ...orderServiceRoutes, ...orderHistoryRoutes, ...paymentRoutes, ...orderChangeRoutes, ...cancellationRoutes, ...airlineChangeRoutes, ...walletRoutes, ...webhookRoutes, ...webhookEndpointRoutes, ...eventRoutes, ...supplierRoutes, ...supplierConnectionRoutes, ...sandboxClockRoutes, ...pricingRuleRoutes, ...auditEventRoutes, ...statementRoutes];
