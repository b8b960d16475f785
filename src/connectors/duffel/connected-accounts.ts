import type { SupplierConnectionService } from "../../gateway/connections/supplier-connections.service";
import type { DuffelAccounts } from "./duffel-accounts";
import { DuffelClient } from "./duffel-client";
import { DuffelConnector } from "./duffel-connector";
import { DUFFEL } from "./duffel-ref";

export interface DuffelSettings {
  /** DUFFEL_API_URL. */
  baseUrl: string;
  /** DUFFEL_TIMEOUT_MS: the longest one call may take. */
  timeoutMs: number;
}

/** Tenants' Duffel accounts from their connections: a connector per call with the token decrypted, and what Duffel said of it recorded. */
export function duffelAccounts(connections: SupplierConnectionService, settings: DuffelSettings): DuffelAccounts {
  return {
    async forTenant(tenantId) {
      const credentials = await connections.credentials(tenantId, DUFFEL.id);
      if (!credentials) return null;
      const client = new DuffelClient({ baseUrl: settings.baseUrl, accessToken: credentials.accessToken, timeoutMs: settings.timeoutMs });
      return { connectionId: credentials.connectionId, connector: new DuffelConnector(client) };
    },
    used: (connectionId) => connections.markUsed(connectionId),
    refused: (connectionId) => connections.markInvalid(connectionId),
  };
}
