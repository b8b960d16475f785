import { useMutation, useQuery } from "urql";
import { Link } from "wouter";
import { ErrorNote } from "../ui/ErrorNote";
import { money, when, words } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { Pager } from "../ui/Pager";
import { useCursorPage } from "../ui/paging";
import { UpdateWalletMutation, WalletQuery } from "./queries";
import { useSession } from "../session/session";
import { WalletFigures } from "./WalletFigures";
import { WalletSettingsForm } from "./WalletSettingsForm";
import { useListsOf } from "../api/list-context";
import { TableHead } from "../ui/TableHead";
import { StatementsSection } from "../statements/StatementsSection";

const PAGE_SIZE = 25;

/** The tenant's wallet (balance, reserved, available), its low-balance threshold, and its ledger, newest first: every change of the balance is one entry. */
export function WalletPage() {
  const paging = useCursorPage(PAGE_SIZE);
  const session = useSession();
  const [{ data, error, fetching }] = useQuery({ query: WalletQuery, variables: paging.variables, context: useListsOf("WalletTransaction") });
  const [settings, updateWallet] = useMutation(UpdateWalletMutation);
  const saved = settings.data?.updateWallet;
  // The settings' answer until a newer read of the wallet comes.
  const wallet = data?.wallet && saved && saved.updatedAt >= data.wallet.updatedAt ? { ...data.wallet, ...saved } : data?.wallet;
  const ledger = wallet?.transactions;
  return (
    <>
      <PageHeading title="Wallet" />
      <ErrorNote error={error} />
      {wallet ? (
        <section className="card" aria-labelledby="balance">
          <h2 id="balance">Balance</h2>
          <WalletFigures wallet={wallet} />
          <p className="hint">as of {when(wallet.updatedAt)}</p>
          {session.can("wallet", "write") ? (
            <WalletSettingsForm wallet={wallet} withCreditLimit={false} busy={settings.fetching} error={settings.error} onSave={(input) => updateWallet({ input: { lowBalanceThreshold: input.lowBalanceThreshold } })} />
          ) : null}
        </section>
      ) : fetching ? (
        <p>Loading…</p>
      ) : null}
      <StatementsSection />
      {ledger ? (
        <section className="card" aria-labelledby="ledger">
          <h2 id="ledger">Ledger</h2>
          <div className="table-wrap">
            <table>
              <caption>{ledger.totalCount} entries, newest first</caption>
              <TableHead columns={["When", "Type", "Amount", "Of which fee", "Balance after", "Order", "Reference"]} />
              <tbody>
                {ledger.nodes.map((entry) => (
                  <tr key={entry.id}>
                    <td>{when(entry.createdAt)}</td>
                    <td>{words(entry.type)}</td>
                    <td className="num">{money(entry.amount, entry.currency)}</td>
                    <td className="num">{entry.feeAmount === "0.00" || entry.feeAmount === "0" ? "—" : money(entry.feeAmount, entry.currency)}</td>
                    <td className="num">{money(entry.balanceAfter, entry.currency)}</td>
                    <td>{entry.orderId ? <Link href={`/orders/${entry.orderId}`}>{entry.orderId}</Link> : "—"}</td>
                    <td>{entry.reference ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager list={ledger} paging={paging} />
        </section>
      ) : null}
    </>
  );
}
