import { useMemo, useState } from "react";
import { useQuery } from "urql";
import { actingForContext, type Credentials } from "../api/client";
import { downloadDocument } from "../api/documents";
import { useSession } from "../session/session";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { money } from "../ui/format";
import { StatementQuery } from "./queries";

/** This month, as the statements name months (the tenant's time zone decides; this is a default only). */
const thisMonth = () => new Date().toISOString().slice(0, 7);

/**
 * A month's statement of the wallet: its opening and closing balances, and the statement as CSV
 * or PDF to download. `tenantId`: the owner reading a tenant's (acting for it for these requests).
 */
export function StatementsSection({ tenantId }: { tenantId?: string }) {
  const session = useSession();
  const credentials: Credentials = tenantId ? { key: session.credentials.key, actingFor: tenantId } : session.credentials;
  const context = useMemo(() => (tenantId ? actingForContext(session.credentials, tenantId) : undefined), [session.credentials, tenantId]);
  const [month, setMonth] = useState(thisMonth);
  const [{ data, error }] = useQuery({ query: StatementQuery, variables: { month }, context, requestPolicy: "network-only" });
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const download = async (accept: string) => {
    setDownloadError(null);
    try {
      await downloadDocument(credentials, `/v1/statements/${month}`, accept);
    } catch (failure) {
      setDownloadError((failure as Error).message);
    }
  };
  const statement = data?.statement;
  return (
    <section className="card" aria-labelledby="statements">
      <h2 id="statements">Statements</h2>
      <div className="grid-form">
        <Field label="Month" hint="In the tenant's time zone.">
          <input type="month" name="month" value={month} onChange={(event) => setMonth(event.target.value)} />
        </Field>
      </div>
      <ErrorNote error={error} />
      {statement ? (
        <dl className="facts" data-testid="statement-summary">
          <dt>Opening balance</dt>
          <dd>{money(statement.openingBalance, statement.currency)}</dd>
          <dt>Closing balance</dt>
          <dd>{money(statement.closingBalance, statement.currency)}</dd>
          <dt>Movements</dt>
          <dd>{statement.lines.length}</dd>
        </dl>
      ) : null}
      <div className="actions">
        <button type="button" disabled={!statement} onClick={() => download("application/pdf")}>
          Download PDF
        </button>
        <button type="button" disabled={!statement} onClick={() => download("text/csv")}>
          Download CSV
        </button>
      </div>
      {downloadError ? <p className="error" role="alert">{downloadError}</p> : null}
    </section>
  );
}
