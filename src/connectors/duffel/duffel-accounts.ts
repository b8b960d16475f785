import type { AppError } from "../../errors/app-error";
import type { DuffelConnector } from "./duffel-connector";
import { catalogueError, isUnauthorized } from "./duffel-errors";

/** A tenant's Duffel account: its connection, and the connector speaking with its token. */
export interface DuffelAccount {
  connectionId: string;
  connector: DuffelConnector;
}

/** Where tenants' Duffel accounts come from, and where what Duffel said of their tokens goes (the connections). */
export interface DuffelAccounts {
  /** The tenant's account, or null when it has no Duffel connection (or connections are off). */
  forTenant(tenantId: string): Promise<DuffelAccount | null>;
  /** Duffel answered a call made with the connection's token. */
  used(connectionId: string): Promise<void>;
  /** Duffel refused the connection's token (401): it shows `invalid`. */
  refused(connectionId: string): Promise<void>;
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
    await accounts.refused(account.connectionId);
    throw refusedToken(answer);
  }
  await accounts.used(account.connectionId);
  return result;
}
