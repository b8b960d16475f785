import type { AccountCredentials, SupplierAccounts } from "../../gateway/connections/supplier-accounts";
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

/**
 * Duffel accounts from the tenants' connections and the owner's platform accounts: a connector
 * per call with the token decrypted, and what Duffel said of it recorded.
 */
export function duffelAccounts(accounts: SupplierAccounts, settings: DuffelSettings): DuffelAccounts {
  const account = (credentials: AccountCredentials | null) => {
    if (!credentials) return null;
    const client = new DuffelClient({ baseUrl: settings.baseUrl, accessToken: credentials.accessToken, timeoutMs: settings.timeoutMs });
    return { connectionId: credentials.connectionId, kind: credentials.kind, connector: new DuffelConnector(client) };
  };
  return {
    forSearch: async (tenantId) => account(await accounts.forSearch(tenantId, DUFFEL.id)),
    of: async (tenantId, kind) => account(await accounts.of(tenantId, DUFFEL.id, kind)),
    used: (used) => accounts.used(used),
    refused: (refused) => accounts.refused(refused),
  };
}
