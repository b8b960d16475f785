import { BookableOffers } from "./order-fixtures";

/** A JSON call to the server under test, as a client would make it. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
}

export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async call<T = any>(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: body as T };
  }

  /** Like `call`, but a non-2xx answer throws with the response in the message. */
  async expectOk<T = any>(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const response = await this.call<T>(method, path, options);
    if (response.status < 200 || response.status > 299) {
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    }
    return response.body;
  }
}

/** What every scenario can rely on: one sandbox tenant and one of its keys, made through the API. */
export interface Fixtures {
  ownerKey: string;
  tenant: { id: string; name: string };
  tenantKey: string;
  /** Offers that can always be booked (order scenarios share it, so no two book one flight). */
  offers: BookableOffers;
}

export async function createFixtures(api: ApiClient, ownerKey: string, name = "Bench Travel"): Promise<Fixtures> {
  const created = await api.expectOk<{ data: { tenantId: string } }>("POST", "/v1/tenants", {
    key: ownerKey,
    body: { name, email: "bench@example.com", environment: "sandbox" },
  });
  const tenantId = created.data.tenantId;
  const issued = await api.expectOk<{ data: { apiKey: string } }>("POST", `/v1/tenants/${tenantId}/keys`, {
    key: ownerKey,
    body: { label: "bench" },
  });
  // The scenarios measure the network supplier alone (its targets predate the second supplier); bench/gateway.ts measures both.
  await api.expectOk("PATCH", "/v1/tenant", { key: issued.data.apiKey, body: { suppliers: ["simulated"] } });
  const fixtures: Omit<Fixtures, "offers"> = { ownerKey, tenant: { id: tenantId, name }, tenantKey: issued.data.apiKey };
  return { ...fixtures, offers: new BookableOffers(api, fixtures) };
}
