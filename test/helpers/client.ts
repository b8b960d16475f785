import { undescribedResponse } from "./openapi-validator";
import { startTestServer, type TestServer } from "./test-server";

/** Where requests go: a test server, or anything else listening (a child process running src/main.ts). */
export type Endpoint = Pick<TestServer, "url">;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  /** Sent as `Authorization: Bearer <key>` unless `keyHeader` is "x-api-key". */
  key?: string;
  keyHeader?: "authorization" | "x-api-key";
  body?: unknown;
  /** A raw body string, sent as is (for malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One HTTP request to the test server, JSON in and out, as a client would send it. */
export async function call<T = any>(server: Endpoint, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    if (options.keyHeader === "x-api-key") headers["x-api-key"] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const response = await fetch(server.url + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (metrics, HTML): tests read the text.
  }
  // Every /v1 answer must be one the OpenAPI document describes: a route that drifts fails its test.
  const undescribed = undescribedResponse(method, path, response.status, parsed, response.headers.get("content-type"));
  if (undescribed) throw new Error(undescribed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** A GraphQL operation over HTTP POST. */
export function graphql<T = any>(server: Endpoint, query: string, variables: Record<string, unknown> = {}, options: Omit<RequestOptions, "body" | "rawBody"> = {}) {
  return call<{ data?: T; errors?: Array<{ message: string; extensions: Record<string, any> }> }>(server, "POST", "/graphql", {
    ...options,
    body: { query, variables },
  });
}

/** GraphQL HTTP requests answered so far by each pipeline (the server's metric). */
export async function graphqlPipelineCounts(server: Endpoint): Promise<{ apollo: number; prepared: number }> {
  const metrics = await call<string>(server, "GET", "/metrics");
  const count = (pipeline: string) => Number(new RegExp(`aerogate_graphql_http_requests_total\\{pipeline="${pipeline}"\\} (\\d+)`).exec(metrics.body)?.[1] ?? 0);
  return { apollo: count("apollo"), prepared: count("prepared") };
}

export interface TenantFixture {
  tenantId: string;
  key: string;
  keyId: string;
}

/** Creates a tenant with one key through the owner API. */
export async function createTenant(server: Pick<TestServer, "url" | "ownerKey">, fields: Record<string, unknown> = {}): Promise<TenantFixture> {
  const created = await call(server, "POST", "/v1/tenants", {
    key: server.ownerKey,
    body: { name: "Test Agency", email: "ops@agency.test", ...fields },
  });
  if (created.status !== 201) throw new Error(`tenant creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const tenantId = created.body.data.tenantId as string;
  const key = await call(server, "POST", `/v1/tenants/${tenantId}/keys`, { key: server.ownerKey, body: { label: "test" } });
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${JSON.stringify(key.body)}`);
  return { tenantId, key: key.body.data.apiKey, keyId: key.body.data.keyId };
}

/** A fresh test server with one tenant, the usual start of a suite. */
export async function startServerWithTenant(env: Record<string, string> = {}): Promise<{ server: TestServer; tenant: TenantFixture }> {
  const server = await startTestServer({ env });
  return { server, tenant: await createTenant(server) };
}
