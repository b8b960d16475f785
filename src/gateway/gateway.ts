import type { Logger } from "../logger";
import type { RegisteredConnector } from "./contract/connector";
import type { CallPolicy } from "./pipeline/call-policy";
import { Breakers, type BreakerSettings } from "./pipeline/circuit-breaker";
import { callPipeline } from "./pipeline/pipeline";
import { SupplierCalls } from "./pipeline/supplier-calls";
import { SupplierRegistry } from "./registry";
import { OrderRouter } from "./router";
import { GatewaySearches, type AccountConnected } from "./searches";

export interface GatewaySettings {
  breaker: BreakerSettings;
  policy: CallPolicy;
  /** Whether a tenant has its own account with a supplier that needs one. */
  connected: AccountConnected;
  log?: Logger;
}

/** The gateway of one process over the connectors the composition root made: their calls piped, searches, and the router of orders' calls. */
export interface Gateway {
  registry: SupplierRegistry;
  searches: GatewaySearches;
  orders: OrderRouter;
  /** Every call made, for metrics and health. */
  calls: SupplierCalls;
  /** The circuits, per supplier and environment. */
  breakers: Breakers;
}

export function createGateway(connectors: readonly RegisteredConnector[], settings: GatewaySettings): Gateway {
  const calls = new SupplierCalls();
  const breakers = new Breakers(settings.breaker);
  const keepMs = new Map(connectors.map((connector) => [connector.ref.id, connector.answersKeepMs]));
  const run = callPipeline({ calls, breakers, policy: settings.policy, keepMs: (supplier) => keepMs.get(supplier) ?? 0, ...(settings.log && { log: settings.log }) });
  const registry = new SupplierRegistry(connectors, run);
  return { registry, searches: new GatewaySearches(registry, settings.connected), orders: new OrderRouter(registry), calls, breakers };
}
