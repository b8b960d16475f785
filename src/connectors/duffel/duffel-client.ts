import { clock } from "../../clock";
import type { DuffelErrorBody, DuffelPage } from "./duffel-shapes";

export interface DuffelClientOptions {
  /** DUFFEL_API_URL, e.g. https://api.duffel.com. */
  baseUrl: string;
  /** The tenant's access token (`duffel_test_…`); sent only to `baseUrl`, never logged. */
  accessToken: string;
  /** The longest one call may take when its caller sets no earlier deadline. */
  timeoutMs: number;
}

export interface DuffelCallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The caller's deadline (clock milliseconds): waits for a rate limit and retries stay before it. */
  deadlineMs?: number;
}

/** Duffel answered with an error body (4xx, or 5xx). */
export class DuffelApiError extends Error {
  override name = "DuffelApiError";
  constructor(
    readonly status: number,
    /** The first error's code (`offer_no_longer_available`), or `http_<status>` when the body held none. */
    readonly code: string,
    readonly type: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** Duffel did not answer before the deadline, or kept rate-limiting past it. */
export class DuffelTimeout extends Error {
  override name = "DuffelTimeout";
}

/** Duffel could not be reached at all (refused, reset, DNS). */
export class DuffelUnreachable extends Error {
  override name = "DuffelUnreachable";
}

/** How long to wait before retrying a safe call after a 5xx or an unreachable Duffel. */
const RETRY_BACKOFF_MS = [200, 800];

/**
 * Duffel's API v2 over HTTP: Bearer token, `Duffel-Version: v2`, JSON `data` envelopes. Every call
 * has a deadline; a 429 waits for `ratelimit-reset` when that is before the deadline (else
 * DuffelTimeout); GETs are retried with backoff after a 5xx or a dropped connection, POSTs never
 * (a repeat could book twice; bookings are found again by their metadata instead).
 */
export class DuffelClient {
  constructor(private readonly options: DuffelClientOptions) {}

  /** The deadline of one call made now (the client's timeout): what a caller bounding several calls together starts from. */
  deadlineFromNow(): number {
    return clock.nowMs() + this.options.timeoutMs;
  }

  get<T>(path: string, options: DuffelCallOptions = {}): Promise<T> {
    return this.call<{ data: T }>("GET", path, options).then((answer) => answer.data);
  }

  post<T>(path: string, options: DuffelCallOptions = {}): Promise<T> {
    return this.call<{ data: T }>("POST", path, options).then((answer) => answer.data);
  }

  /** A POST and Duffel's status: a 202 says Duffel accepted the request and has not carried it out yet. */
  postAnswer<T>(path: string, options: DuffelCallOptions = {}): Promise<{ status: number; data: T }> {
    return this.call<{ data: T }, { status: number; data: T }>("POST", path, options, (status, answer) => ({ status, data: answer.data }));
  }

  /** A DELETE: Duffel answers 204 with no body. */
  delete(path: string, options: DuffelCallOptions = {}): Promise<void> {
    return this.call<undefined, void>("DELETE", path, options, () => undefined);
  }

  /** One page of a list, and the cursor of the next. */
  page<T>(path: string, options: DuffelCallOptions = {}): Promise<DuffelPage<T>> {
    return this.call<DuffelPage<T>>("GET", path, options);
  }

  private async call<T, R = T>(method: "GET" | "POST" | "DELETE", path: string, options: DuffelCallOptions, read: (status: number, body: T) => R = (_status, body) => body as unknown as R): Promise<R> {
    const deadlineMs = Math.min(options.deadlineMs ?? Infinity, clock.nowMs() + this.options.timeoutMs);
    // Joined, not resolved: `new URL("/air/…", base)` would drop a path prefix of DUFFEL_API_URL (a proxy's).
    const url = new URL(this.options.baseUrl.replace(/\/+$/, "") + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const body = options.body === undefined ? undefined : JSON.stringify({ data: options.body });
    for (let attempt = 0; ; attempt++) {
      const answer = await this.attempt(method, url, body, deadlineMs).catch((error: unknown) => error as Error);
      const retryIn = method !== "POST" && isTransient(answer) ? RETRY_BACKOFF_MS[attempt] : undefined;
      if (answer instanceof RateLimited) {
        await waitUntil(answer.resetAtMs, deadlineMs);
        continue;
      }
      if (retryIn !== undefined && clock.nowMs() + retryIn < deadlineMs) {
        await sleep(retryIn);
        continue;
      }
      if (answer instanceof Error) throw answer;
      // Only a 2xx is Duffel's answer carried out (a redirect or an informational status is not).
      if (!answer.ok) throw await apiError(answer);
      return read(answer.status, (answer.status === 204 ? undefined : await answer.json()) as T);
    }
  }

  /**
   * One HTTP exchange: a 5xx, timeout or dropped connection rejects (Duffel's failure); a 4xx is
   * returned, and a 429 too, as RateLimited (Duffel's answer about us, for the caller to wait out).
   */
  private attempt(method: string, url: URL, body: string | undefined, deadlineMs: number): Promise<Response | RateLimited> {
    return (async () => {
      const remainingMs = deadlineMs - clock.nowMs();
      if (remainingMs <= 0) throw new DuffelTimeout(`Duffel did not answer ${method} ${url.pathname} in time`);
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${this.options.accessToken}`,
            "duffel-version": "v2",
            accept: "application/json",
            ...(body !== undefined && { "content-type": "application/json" }),
          },
          body,
          signal: AbortSignal.timeout(remainingMs),
        });
      } catch (error) {
        if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) throw new DuffelTimeout(`Duffel did not answer ${method} ${url.pathname} in time`);
        throw new DuffelUnreachable(`Duffel could not be reached: ${(error as Error).message}`);
      }
      if (response.status === 429) {
        await response.body?.cancel();
        return new RateLimited(rateLimitResetMs(response.headers));
      }
      if (response.status >= 500) throw await apiError(response);
      return response;
    })();
  }
}

/** A 429 from Duffel: the window resets at `resetAtMs`. */
class RateLimited {
  constructor(readonly resetAtMs: number) {}
}

function isTransient(answer: Response | RateLimited | Error): boolean {
  return answer instanceof DuffelUnreachable || (answer instanceof DuffelApiError && answer.status >= 500);
}

/**
 * When the rate-limit window resets: `ratelimit-reset` as an HTTP date (Duffel's form), Unix
 * seconds, or seconds from now; `retry-after` else; one second when neither says.
 */
export function rateLimitResetMs(headers: Headers): number {
  const now = clock.nowMs();
  const reset = headers.get("ratelimit-reset") ?? headers.get("retry-after");
  if (reset === null) return now + 1000;
  if (/^\d+$/.test(reset.trim())) {
    const seconds = Number(reset);
    return seconds > 1_000_000_000 ? seconds * 1000 : now + seconds * 1000;
  }
  const date = Date.parse(reset);
  return Number.isNaN(date) ? now + 1000 : date;
}

async function waitUntil(atMs: number, deadlineMs: number): Promise<void> {
  if (atMs >= deadlineMs) throw new DuffelTimeout("Duffel's rate limit resets after the call's deadline");
  await sleep(Math.max(0, atMs - clock.nowMs()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function apiError(response: Response): Promise<DuffelApiError> {
  const text = await response.text().catch(() => "");
  let body: Partial<DuffelErrorBody> = {};
  try {
    body = JSON.parse(text) as Partial<DuffelErrorBody>;
  } catch {
    // Not Duffel's JSON (a proxy's page): the status alone says what happened.
  }
  const first = body.errors?.[0];
  return new DuffelApiError(response.status, first?.code ?? `http_${response.status}`, first?.type ?? "api_error", first?.message ?? `Duffel answered ${response.status}`, body.meta?.request_id ?? null);
}
