import { DuffelClient, type SupplierBreaker } from "./duffel-client";
import { DuffelConnector } from "./duffel-connector";
import type { DuffelAccounts } from "./duffel-accounts";
import type { SupplierConnectionService } from "../../gateway/connections/supplier-connections.service";

export interface DuffelSettings {
  /** DUFFEL_API_URL. */
  baseUrl: string;
  /** DUFFEL_TIMEOUT_MS: the longest one call may take. */
  timeoutMs: number;
  /** The Duffel supplier's circuit breaker, when the caller keeps one. */
  breaker?: SupplierBreaker;
}

/** Tenants' Duffel accounts from their connections: a connector per call with the token decrypted, and what Duffel said of it recorded. */
export function duffelAccounts(connections: SupplierConnectionService, settings: DuffelSettings): DuffelAccounts {
  return {
    async forTenant(tenantId) {
      const credentials = await connections.credentials(tenantId, "duffel");
      if (!credentials) return null;
      const client = new DuffelClient({ baseUrl: settings.baseUrl, accessToken: credentials.accessToken, timeoutMs: settings.timeoutMs, breaker: settings.breaker });
      return { connectionId: credentials.connectionId, connector: new DuffelConnector(client) };
    },
    used: (connectionId) => connections.markUsed(connectionId),
    refused: (connectionId) => connections.markInvalid(connectionId),
  };
}
