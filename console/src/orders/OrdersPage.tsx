import { useEffect, useState, type FormEvent } from "react";
import { useQuery } from "urql";
import { Link } from "wouter";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { money, when, words } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { Pager } from "../ui/Pager";
import { useCursorPage, useUrlFilters } from "../ui/paging";
import { StatusBadge } from "../ui/StatusBadge";
import { apiErrors } from "../api/errors";
import { FILTER_NAMES, ORDER_STATUSES, orderFilterVariables, type OrderFilterValues } from "./filters";
import { OrdersQuery } from "./queries";
import { useListsOf } from "../api/list-context";
import { TableHead } from "../ui/TableHead";

const PAGE_SIZE = 25;

/** The tenant's orders, filtered and paged by the URL, one page of 25 at a time. */
export function OrdersPage() {
  const { values, apply } = useUrlFilters(FILTER_NAMES);
  const paging = useCursorPage(PAGE_SIZE);
  const [{ data, error, fetching }] = useQuery({ query: OrdersQuery, variables: { ...paging.variables, ...orderFilterVariables(values) }, context: useListsOf("Order") });
  const orders = data?.orders;
  return (
    <>
      <PageHeading title="Orders" />
      <OrderFilters values={values} onApply={apply} error={apiErrors(error)} />
      <ErrorNote error={error} fields={["passengerName", "bookingReference"]} />
      <div className="table-wrap">
        <table>
          <caption>{orders ? `${orders.totalCount} order${orders.totalCount === 1 ? "" : "s"}` : fetching ? "Loading…" : ""}</caption>
          <TableHead columns={["Booking reference", "Status", "Itinerary", "Passengers", "Total", "Booked"]} />
          <tbody>
            {orders?.nodes.map((order) => (
              <tr key={order.id}>
                <td>
                  <Link href={`/orders/${order.id}`}>{order.bookingReference}</Link>
                </td>
                <td>
                  <StatusBadge status={order.status} />
                </td>
                <td>
                  {order.offer.slices.map((slice) => (
                    <div key={slice.id}>
                      {slice.origin.iataCode} → {slice.destination.iataCode} <span className="hint">{slice.departureDate}</span>
                    </div>
                  ))}
                </td>
                <td>{order.passengers.map((passenger) => `${passenger.givenName} ${passenger.familyName}`).join(", ")}</td>
                <td className="num">{money(order.totalAmount, order.totalCurrency)}</td>
                <td>{when(order.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager list={orders} paging={paging} />
    </>
  );
}

function OrderFilters({ values, onApply, error }: { values: OrderFilterValues; onApply(values: OrderFilterValues): void; error: ReturnType<typeof apiErrors> }) {
  const [draft, setDraft] = useState(values);
  // Back and forward change the URL's filters: the form follows.
  useEffect(() => setDraft(values), [JSON.stringify(values)]);
  const set = (name: keyof OrderFilterValues) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const fieldError = (field: string) => error.find((item) => item.field === field)?.message;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form role="search" aria-label="Filter orders" className="card inline-form" onSubmit={submit}>
      <Field label="Status">
        <select name="status" value={draft.status} onChange={set("status")}>
          <option value="">Any</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {words(status)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Booked from">
        <input name="from" type="date" value={draft.from} onChange={set("from")} />
      </Field>
      <Field label="Booked to">
        <input name="to" type="date" value={draft.to} onChange={set("to")} />
      </Field>
      <Field label="Booking reference" error={fieldError("bookingReference")}>
        <input name="reference" autoCapitalize="characters" value={draft.reference} onChange={set("reference")} />
      </Field>
      <Field label="Passenger name" error={fieldError("passengerName")}>
        <input name="name" value={draft.name} onChange={set("name")} />
      </Field>
      <button type="submit" className="primary">
        Filter
      </button>
      <button type="button" onClick={() => onApply({ status: "", from: "", to: "", reference: "", name: "" })}>
        Clear
      </button>
    </form>
  );
}
