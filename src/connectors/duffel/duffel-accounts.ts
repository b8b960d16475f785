import type { AppError } from "../../errors/app-error";
import type { SupplierAccountKind } from "../../gateway/contract/offers";
import type { DuffelConnector } from "./duffel-connector";
import { catalogueError, isUnauthorized } from "./duffel-errors";

/** A Duffel account a tenant's calls use: the tenant's own connection or the owner's platform account, and the connector speaking with its token. */
export interface DuffelAccount {
  /** The connection's id (`spc_…`), or the platform account's (`spa_…`). */
  connectionId: string;
  kind: SupplierAccountKind;
  connector: DuffelConnector;
}

/** Where the Duffel accounts tenants use come from, and where what Duffel said of their tokens goes. */
export interface DuffelAccounts {
  /** The account a tenant's search uses (its own, else the platform's when the owner lets it), or null when it has none. */
  forSearch(tenantId: string): Promise<DuffelAccount | null>;
  /** The tenant's account of `kind` (its connection, or the platform's of its mode), or null when there is none (any more). */
  of(tenantId: string, kind: SupplierAccountKind): Promise<DuffelAccount | null>;
  /** Duffel answered a call made with the account's token. */
  used(account: DuffelAccount): Promise<void>;
  /** Duffel refused the account's token (401): it shows `invalid`. */
  refused(account: DuffelAccount): Promise<void>;
}

/**
 * Runs `call` on the account: a success marks the connection used, a 401 marks it invalid, and
 * any Duffel failure is thrown in the catalogue's words (duffel-errors.ts); a refused token's
 * answer is thrown as `refusedToken` makes it (a search tells it apart so).
 */
export async function onAccount<T>(
  accounts: DuffelAccounts,
  account: DuffelAccount,
  call: (connector: DuffelConnector) => Promise<T>,
  refusedToken: (answer: AppError) => Error = (answer) => answer,
): Promise<T> {
  let result: T;
  try {
    result = await call(account.connector);
  } catch (error) {
    const answer = catalogueError(error) satisfies AppError;
    if (!isUnauthorized(error)) throw answer;
    await accounts.refused(account);
    throw refusedToken(answer);
  }
  await accounts.used(account);
  return result;
}
