import { useQuery } from "urql";
import { ErrorNote } from "../ui/ErrorNote";
import { PageHeading } from "../ui/PageHeading";
import { PlatformAccountsSection } from "./PlatformAccountsSection";
import { SupplierHealthTable } from "./SupplierHealthTable";
import { SuppliersQuery } from "./queries";

/** The owner's view of the suppliers: their health (GET /v1/suppliers' GraphQL twin), read again on demand, and the platform's own accounts with them. */
export function SuppliersPage() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: SuppliersQuery, requestPolicy: "network-only" });
  return (
    <>
      <PageHeading title="Suppliers">
        <button type="button" onClick={() => refetch({ requestPolicy: "network-only" })} disabled={fetching}>
          {fetching ? "Reading…" : "Read again"}
        </button>
      </PageHeading>
      <ErrorNote error={error} />
      {data ? (
        <section className="card" aria-labelledby="supplier-health">
          <h2 id="supplier-health">Health</h2>
          <SupplierHealthTable suppliers={data.suppliers} />
        </section>
      ) : fetching ? (
        <p>Loading…</p>
      ) : null}
      <PlatformAccountsSection />
    </>
  );
}
