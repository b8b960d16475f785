import { money } from "../ui/format";

/** The wallet's figures a person decides on: what it holds, what unpaid orders will take, and what is left. */
export interface WalletFigureFields {
  balance: string;
  currency: string;
  creditLimit: string;
  reserved: string;
  available: string;
  lowBalanceThreshold?: string | null;
}

/** Balance, credit limit, reserved, available and the low-balance threshold, as the API states them. */
export function WalletFigures({ wallet }: { wallet: WalletFigureFields }) {
  const below = wallet.lowBalanceThreshold != null && Number(wallet.available) < Number(wallet.lowBalanceThreshold);
  return (
    <dl className="facts" data-testid="wallet-figures">
      <dt>Balance</dt>
      <dd data-testid="wallet-balance">{money(wallet.balance, wallet.currency)}</dd>
      <dt>Credit limit</dt>
      <dd>{money(wallet.creditLimit, wallet.currency)}</dd>
      <dt>Reserved</dt>
      <dd data-testid="wallet-reserved">
        {money(wallet.reserved, wallet.currency)} <span className="hint">what unpaid orders will take</span>
      </dd>
      <dt>Available</dt>
      <dd data-testid="wallet-available">
        <strong>{money(wallet.available, wallet.currency)}</strong> <span className="hint">balance + credit limit − reserved</span>
        {below ? <span className="badge" data-testid="wallet-below-threshold"> below the low-balance threshold</span> : null}
      </dd>
      <dt>Low-balance alert</dt>
      <dd data-testid="wallet-threshold">{wallet.lowBalanceThreshold == null ? "none" : `when available falls below ${money(wallet.lowBalanceThreshold, wallet.currency)}`}</dd>
    </dl>
  );
}
