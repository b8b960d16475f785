import type { TenantScope } from "../tenancy/tenant-scope";
import { appError, type AppError } from "../errors/app-error";
import { formatMinor } from "../money/format";
import type { Wallet } from "./wallet";

/**
 * 402 `insufficient_balance` for an operation the wallet cannot pay: `cost` says what it costs
 * ("The order costs", in the wallet's currency). What the wallet holds (and its credit limit) is shown only to a caller
 * that may read the wallet (`scope.mayReadWallet`), never in a repeat of the answer for its
 * Idempotency-Key (which any key of the tenant may send): a key without `wallet: read` learns
 * that it is short, never the balance. `note` is added after the balance where it is shown.
 */
export function insufficientBalance(scope: TenantScope, cost: string, amount: number, wallet: Pick<Wallet, "balance" | "creditLimit" | "currency">, note = ""): AppError {
  const costs = `${cost} ${formatMinor(amount, wallet.currency)} ${wallet.currency}`;
  const withoutBalance = `${costs}; the wallet cannot cover it.`;
  if (!scope.mayReadWallet) return appError("insufficient_balance", { reason: withoutBalance });
  const credit = wallet.creditLimit > 0 ? ` with a credit limit of ${formatMinor(wallet.creditLimit, wallet.currency)}` : "";
  return appError("insufficient_balance", { reason: `${costs}; the wallet holds ${formatMinor(wallet.balance, wallet.currency)}${credit}${note}.`, replayReason: withoutBalance });
}
