import type { SupplierResultStatus } from "../generated/graphql";
import { StatusBadge } from "../ui/StatusBadge";
import { TableHead } from "../ui/TableHead";

export interface SupplierResultRow {
  supplier: string;
  status: SupplierResultStatus;
  offerCount: number;
  durationMs: number;
}

/** How each supplier did in the search shown: its status, how many offers it brought, how long it took. */
export function SupplierResults({ results }: { results: readonly SupplierResultRow[] }) {
  return (
    <section className="card" aria-labelledby="supplier-results-heading">
      <h2 id="supplier-results-heading">Suppliers asked</h2>
      <div className="table-wrap">
        <table>
          <TableHead columns={["Supplier", "Status", "Offers", "Took"]} />
          <tbody>
            {results.map((result) => (
              <tr key={result.supplier} aria-label={`Supplier ${result.supplier}`}>
                <th scope="row">
                  <code>{result.supplier}</code>
                </th>
                <td>
                  <StatusBadge status={result.status} />
                </td>
                <td className="num">{result.offerCount}</td>
                <td className="num">{result.durationMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
