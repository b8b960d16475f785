import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType } from "react";
import { Provider, useQuery } from "urql";
import { Link, Redirect, Route, Router, Switch, useLocation } from "wouter";
import { apiClient, type Credentials } from "./api/client";
import { apiErrors } from "./api/errors";
import { ViewerQuery } from "./session/queries";
import { SessionContext, hasTenantScope, permits, useSession, type Level, type Resource, type Session } from "./session/session";
import { loadCredentials, storeCredentials } from "./session/session-storage";
import { SignInPage } from "./session/SignInPage";
import { ErrorNote } from "./ui/ErrorNote";
import { shown, words } from "./ui/format";

/** Each page is its own chunk, fetched when first visited: the first load is the shell and sign-in only. */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}
const TenantsPage = page(() => import("./tenants/TenantsPage"), "TenantsPage");
const TenantPage = page(() => import("./tenants/TenantPage"), "TenantPage");
const OrdersPage = page(() => import("./orders/OrdersPage"), "OrdersPage");
const OrderPage = page(() => import("./orders/OrderPage"), "OrderPage");
const SearchPage = page(() => import("./search/SearchPage"), "SearchPage");
const BookPage = page(() => import("./search/BookPage"), "BookPage");
const WebhooksPage = page(() => import("./webhooks/WebhooksPage"), "WebhooksPage");
const WalletPage = page(() => import("./wallet/WalletPage"), "WalletPage");
const SuppliersPage = page(() => import("./suppliers/SuppliersPage"), "SuppliersPage");
const OverviewPage = page(() => import("./overview/OverviewPage"), "OverviewPage");
const AuditPage = page(() => import("./audit/AuditPage"), "AuditPage");

/** Errors on which the key is no good for the console at all: back to signing in, saying why. */
const REFUSED_KEY_CODES = new Set(["unauthorized", "tenant_suspended"]);

export function App() {
  const [credentials, setCredentials] = useState(loadCredentials);
  const [refusal, setRefusal] = useState<string | null>(null);
  const change = (next: Credentials | null, reason: string | null = null) => {
    storeCredentials(next);
    setCredentials(next);
    setRefusal(reason);
  };
  if (!credentials) return <SignInPage refusal={refusal} onSignIn={(key) => change({ key, actingFor: null })} />;
  // A new key, or another tenant acted for, is a new client: nothing cached under the old one is shown.
  return <SignedIn key={`${credentials.key} ${credentials.actingFor}`} credentials={credentials} onChange={change} />;
}

function SignedIn({ credentials, onChange }: { credentials: Credentials; onChange(next: Credentials | null, reason?: string | null): void }) {
  const api = useMemo(() => apiClient(credentials), [credentials]);
  useEffect(() => () => api.dispose(), [api]);
  return (
    <Provider value={api.client}>
      <ViewerGate credentials={credentials} onChange={onChange} />
    </Provider>
  );
}

function ViewerGate({ credentials, onChange }: { credentials: Credentials; onChange(next: Credentials | null, reason?: string | null): void }) {
  const [{ data, error }] = useQuery({ query: ViewerQuery, requestPolicy: "network-only" });
  const refused = apiErrors(error).find((item) => REFUSED_KEY_CODES.has(item.code));
  const lostTenant = apiErrors(error).some((item) => item.code === "tenant_not_found") && credentials.actingFor !== null;
  useEffect(() => {
    if (refused) onChange(null, refused.message);
    // The tenant acted for was deleted meanwhile: act for none.
    else if (lostTenant) onChange({ ...credentials, actingFor: null });
  }, [refused, lostTenant]);
  const session = useMemo<Session | null>(() => {
    if (!data) return null;
    const viewer = data.viewer;
    return {
      credentials,
      viewer,
      can: (resource: Resource, level: Level) => permits(viewer, resource, level),
      actFor: (tenantId) => onChange({ ...credentials, actingFor: tenantId }),
      signOut: () => onChange(null),
    };
  }, [data, credentials]);
  if (!session) {
    return (
      <main id="content" className="loading">
        {error && !refused ? <ErrorNote error={error} /> : <p>Signing in…</p>}
      </main>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Router base="/console">
        <Shell />
      </Router>
    </SessionContext.Provider>
  );
}

function NavLink({ href, children }: { href: string; children: string }) {
  const [location] = useLocation();
  const current = location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}

function Shell() {
  const session = useSession();
  const { viewer } = session;
  const owner = viewer.kind === "OWNER";
  const tenantScope = hasTenantScope(session);
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Aerogate</span>
        <nav aria-label="Main">
          {owner ? <NavLink href="/overview">Overview</NavLink> : null}
          {owner ? <NavLink href="/tenants">Tenants</NavLink> : null}
          {owner ? <NavLink href="/suppliers">Suppliers</NavLink> : null}
          {tenantScope && session.can("orders", "read") ? <NavLink href="/orders">Orders</NavLink> : null}
          {tenantScope && session.can("search", "read") ? <NavLink href="/search">Search &amp; book</NavLink> : null}
          {tenantScope && session.can("webhooks", "read") ? <NavLink href="/webhooks">Webhooks</NavLink> : null}
          {tenantScope && session.can("wallet", "read") ? <NavLink href="/wallet">Wallet</NavLink> : null}
          {tenantScope && session.can("tenant", "read") ? <NavLink href="/audit">Audit log</NavLink> : null}
        </nav>
        <div className="who">
          {viewer.tenant ? (
            <span>
              {owner ? "Acting for " : ""}
              <strong>{shown(viewer.tenant.name)}</strong> <span className="badge">{words(viewer.tenant.environment)}</span>
            </span>
          ) : (
            <span>{owner ? "Owner" : "Tenant key"}</span>
          )}
          {owner && tenantScope ? (
            <button type="button" onClick={() => session.actFor(null)}>
              Stop acting
            </button>
          ) : null}
          <button type="button" onClick={session.signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content" tabIndex={-1}>
        <Suspense fallback={<p>Loading…</p>}>
          <Switch>
            <Route path="/">{owner && !tenantScope ? <Redirect to="/overview" replace /> : <Redirect to="/orders" replace />}</Route>
            <Route path="/overview" component={OverviewPage} />
            <Route path="/audit" component={AuditPage} />
            <Route path="/tenants" component={TenantsPage} />
            <Route path="/tenants/:id" component={TenantPage} />
            <Route path="/orders" component={OrdersPage} />
            <Route path="/orders/:id" component={OrderPage} />
            <Route path="/search" component={SearchPage} />
            <Route path="/book/:offerId" component={BookPage} />
            <Route path="/webhooks" component={WebhooksPage} />
            <Route path="/wallet" component={WalletPage} />
            <Route path="/suppliers" component={SuppliersPage} />
            <Route>
              <h1>Not found</h1>
              <p>
                There is no such page. <Link href="/">Go to the start.</Link>
              </p>
            </Route>
          </Switch>
        </Suspense>
      </main>
    </>
  );
}
