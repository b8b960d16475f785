/** Every event a tenant's wallet emits (docs/webhooks.md#wallet-events), under the webhook's `event` names. */
export const WALLET_EVENT_TYPES = ["wallet.low_balance", "wallet.credited"] as const;
export type WalletEventType = (typeof WALLET_EVENT_TYPES)[number];

/**
 * What every process hears on the `wallets` channel after a wallet event committed: enough to wake
 * the webhook dispatcher and to tell the tenant's subscribers (`createdAt` is ISO text: the
 * message crosses processes as JSON).
 */
export interface WalletEventNotice {
  id: string;
  tenantId: string;
  type: WalletEventType;
  createdAt: string;
}

export function isWalletEventNotice(message: unknown): message is WalletEventNotice {
  if (typeof message !== "object" || message === null) return false;
  const { id, tenantId, type } = message as Partial<WalletEventNotice>;
  return typeof id === "string" && typeof tenantId === "string" && (WALLET_EVENT_TYPES as readonly string[]).includes(type as string);
}
