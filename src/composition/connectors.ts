import type { Config } from "../config";
import type { Database } from "../db/database";
import { supplierConnectionInput } from "../gateway/connections/supplier-connection.inputs";
import type { SupplierAccounts } from "../gateway/connections/supplier-accounts";
import type { SupplierConnectionService } from "../gateway/connections/supplier-connections.service";
import type { AccountWebhooks, Connector, RegisteredConnector, SupplierOrderSignals } from "../gateway/contract/connector";
import type { AirportIndex } from "../locations/airport-index";
import { simulatedLowCost, simulatedNetwork } from "../connectors/simulated/registration";
import { duffelConnector } from "../connectors/duffel/duffel-registration";
import { scriptedConnector } from "../connectors/scripted/scripted-registration";

/** What the composition root hands every connector: each takes what it needs of it. */
export interface ConnectorParts {
  config: Config;
  db: Database;
  airports: AirportIndex;
  accounts: SupplierAccounts;
  connections: SupplierConnectionService;
  orderSignals: SupplierOrderSignals;
}

/**
 * Every connector, one line each, in the order tenants' searches list them by default
 * (docs/connectors.md). The only place outside a connector's folder that names it.
 */
const CONNECTORS: ReadonlyArray<Connector<ConnectorParts>> = [
  simulatedNetwork,
  simulatedLowCost,
  duffelConnector,
  scriptedConnector,
];

/** Every connector's supplier id, the test-only ones' too. */
export const CONNECTOR_IDS: readonly string[] = CONNECTORS.map((connector) => connector.ref.id);

/** The suppliers a tenant connects with its own account, as the connection routes name them. */
export const CONNECTABLE_SUPPLIERS = CONNECTORS.flatMap((connector) => (connector.account ? [connector.ref.id] : [])) as [string, ...string[]];

/** The body of a new supplier connection (REST and GraphQL), naming a supplier that takes an account. */
export const SUPPLIER_CONNECTION_INPUT = supplierConnectionInput(CONNECTABLE_SUPPLIERS);

/** How each connectable supplier's tokens look, by supplier id. */
export const ACCOUNT_TOKENS = new Map(CONNECTORS.flatMap((connector) => (connector.account ? [[connector.ref.id, connector.account] as const] : [])));

/** The registered connectors' account webhooks (those whose webhooks an account creates itself), by supplier id. */
export function accountWebhooksOf(connectors: readonly RegisteredConnector[]): ReadonlyMap<string, AccountWebhooks> {
  return new Map(connectors.flatMap((connector) => (connector.accountWebhooks ? [[connector.ref.id, connector.accountWebhooks] as const] : [])));
}

/**
 * The connectors this process registers: the product's, and those written for the tests only
 * when AEROGATE_TEST_CONNECTORS names them (an unknown name there is an error).
 */
export function registeredConnectors(parts: ConnectorParts): RegisteredConnector[] {
  const unknown = parts.config.AEROGATE_TEST_CONNECTORS.find((name) => !CONNECTORS.some((connector) => connector.testOnly && connector.ref.id === name));
  if (unknown !== undefined) throw new Error(`AEROGATE_TEST_CONNECTORS names ${unknown}, which is no test connector`);
  return CONNECTORS.filter((connector) => !connector.testOnly || parts.config.AEROGATE_TEST_CONNECTORS.includes(connector.ref.id)).map((connector) => ({
    ...connector.create(parts),
    ref: connector.ref,
    ...(connector.account && { account: connector.account }),
  }));
}
