import { useQuery } from "urql";
import { useListsOf } from "../api/list-context";
import { ErrorNote } from "../ui/ErrorNote";
import { when, words } from "../ui/format";
import { Pager } from "../ui/Pager";
import { useCursorPage } from "../ui/paging";
import { TableHead } from "../ui/TableHead";
import { AuditEventsQuery } from "./queries";

const PAGE_SIZE = 20;

/** A change's fields as "field: from → to", one per line. */
function changed(changes: Record<string, unknown>): string {
  const text = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));
  return Object.entries(changes as Record<string, { from: unknown; to: unknown }>)
    .map(([field, change]) => `${field}: ${text(change.from)} → ${text(change.to)}`)
    .join("\n");
}

/** The audit log, newest first: the owner's for one tenant (`tenantId`), or the caller's own tenant's. */
export function AuditLog({ tenantId }: { tenantId?: string }) {
  const paging = useCursorPage(PAGE_SIZE);
  // Read again after any change this page makes: every one of them is a new event.
  const context = useListsOf("AuditEvent", "PricingRule", "ApiKey", "Tenant", "WalletCredit", "Wallet", "WebhookEndpoint", "TenantConfig");
  const [{ data, error, fetching }] = useQuery({ query: AuditEventsQuery, variables: { ...paging.variables, tenantId: tenantId ?? null }, context });
  const events = data?.auditEvents;
  return (
    <section className="card" aria-labelledby="audit-log">
      <h2 id="audit-log">Audit log</h2>
      <ErrorNote error={error} />
      {events ? (
        <>
          <div className="table-wrap">
            <table>
              <caption>{events.totalCount} changes, newest first</caption>
              <TableHead columns={["When", "Change", "By", "What", "Fields"]} />
              <tbody>
                {events.nodes.map((event) => (
                  <tr key={event.id}>
                    <td>{when(event.createdAt)}</td>
                    <td>
                      <code>{event.action}</code>
                    </td>
                    <td>
                      {event.actor.type === "OWNER" ? "Owner" : `Key “${event.actor.label}”`}
                      {event.ip ? <span className="hint"> from {event.ip}</span> : null}
                    </td>
                    <td>
                      {words(event.target.type)} <code>{event.target.id}</code>
                    </td>
                    <td className="changes">{changed(event.changes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager list={events} paging={paging} />
        </>
      ) : fetching ? (
        <p>Loading…</p>
      ) : null}
    </section>
  );
}
