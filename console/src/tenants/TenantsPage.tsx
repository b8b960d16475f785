import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { Link, useLocation } from "wouter";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { shown, when, words } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { Pager } from "../ui/Pager";
import { useCursorPage, useUrlFilters } from "../ui/paging";
import { StatusBadge } from "../ui/StatusBadge";
import { apiErrors } from "../api/errors";
import { CreateTenantMutation, TenantsQuery } from "./queries";
import { useListsOf } from "../api/list-context";
import { TableHead } from "../ui/TableHead";

const PAGE_SIZE = 20;

/** Owner: every tenant, newest first, searchable by id, name, email or slug; and a form to create one. */
export function TenantsPage() {
  const { values, apply } = useUrlFilters(["q"] as const);
  const [search, setSearch] = useState(values.q);
  const paging = useCursorPage(PAGE_SIZE);
  const [{ data, error, fetching }] = useQuery({ query: TenantsQuery, variables: { ...paging.variables, search: values.q || null }, context: useListsOf("Tenant") });
  const tenants = data?.tenants;
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    apply({ q: search });
  };
  return (
    <>
      <PageHeading title="Tenants" />
      <section aria-labelledby="find-tenants" className="card">
        <h2 id="find-tenants">Find a tenant</h2>
        <form role="search" onSubmit={submitSearch} className="inline-form">
          <Field label="Search" hint="An id, or part of a name, email or slug.">
            <input type="search" name="search" value={search} onChange={(event) => setSearch(event.target.value)} />
          </Field>
          <button type="submit">Search</button>
        </form>
      </section>
      <ErrorNote error={error} />
      <div className="table-wrap">
        <table>
          <caption>{tenants ? `${tenants.totalCount} tenant${tenants.totalCount === 1 ? "" : "s"}${values.q ? ` matching “${shown(values.q)}”` : ""}` : fetching ? "Loading…" : ""}</caption>
          <TableHead columns={["Name", "Email", "Environment", "Status", "Created"]} />
          <tbody>
            {tenants?.nodes.map((tenant) => (
              <tr key={tenant.id}>
                <td>
                  <Link href={`/tenants/${tenant.id}`}>{tenant.name === null ? `(deleted) ${tenant.slug}` : shown(tenant.name)}</Link>
                </td>
                <td>{tenant.email ?? "—"}</td>
                <td>{words(tenant.environment)}</td>
                <td>
                  <StatusBadge status={tenant.status} />
                </td>
                <td>{when(tenant.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager list={tenants} paging={paging} />
      <NewTenantForm />
    </>
  );
}

function NewTenantForm() {
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [environment, setEnvironment] = useState<"SANDBOX" | "LIVE">("SANDBOX");
  const [{ error, fetching }, createTenant] = useMutation(CreateTenantMutation);
  const fieldError = (field: string) => apiErrors(error).find((item) => item.field === field || item.field === `input.${field}`)?.message;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await createTenant({ input: { name, email, environment } });
    if (result.data) navigate(`/tenants/${result.data.createTenant.id}`);
  };
  return (
    <section aria-labelledby="new-tenant" className="card">
      <h2 id="new-tenant">New tenant</h2>
      <form onSubmit={submit} className="grid-form">
        <Field label="Name" error={fieldError("name")}>
          <input name="name" required value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label="Email" error={fieldError("email")}>
          <input name="email" type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Field label="Environment" hint="Sandbox tenants book with play money.">
          <select name="environment" value={environment} onChange={(event) => setEnvironment(event.target.value as "SANDBOX" | "LIVE")}>
            <option value="SANDBOX">Sandbox</option>
            <option value="LIVE">Live</option>
          </select>
        </Field>
        <ErrorNote error={error} fields={["name", "email", "input.name", "input.email"]} />
        <div className="actions">
          <button type="submit" className="primary" disabled={fetching}>
            Create tenant
          </button>
        </div>
      </form>
    </section>
  );
}
