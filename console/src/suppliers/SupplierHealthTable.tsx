import type { ConsoleSuppliersQuery } from "../generated/graphql";
import { StatusBadge } from "../ui/StatusBadge";
import { TableHead } from "../ui/TableHead";
import { words } from "../ui/format";

type SupplierHealth = ConsoleSuppliersQuery["suppliers"][number];

const milliseconds = (value: number | null | undefined) => (value == null ? "—" : `≤ ${value} ms`);

/** Each supplier's health as a row: status, circuit, latency percentiles, error rate, calls. */
export function SupplierHealthTable({ suppliers }: { suppliers: readonly SupplierHealth[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>Over the last 5 minutes, every server process's calls together; the circuit is the answering process's own.</caption>
        <TableHead columns={["Supplier", "Status", "Circuit", "Latency p50", "Latency p99", "Error rate", "Calls"]} />
        <tbody>
          {suppliers.map((supplier) => (
            <tr key={supplier.id} aria-label={`Supplier ${supplier.name}`}>
              <th scope="row">
                {supplier.name}
                <br />
                <code className="hint">{supplier.id}</code>
              </th>
              <td>
                <StatusBadge status={supplier.status} />
              </td>
              <td>{words(supplier.circuit)}</td>
              <td className="num">{milliseconds(supplier.latencyMs.p50)}</td>
              <td className="num">{milliseconds(supplier.latencyMs.p99)}</td>
              <td className="num">{(supplier.errorRate * 100).toFixed(1)} %</td>
              <td className="num">{supplier.calls}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
