import autocannon, { type Instance, type Result } from "autocannon";
import type { BenchRequest } from "./scenarios";

export interface LoadOptions {
  connections: number;
  pipelining: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  /** Mean of the per-second request counts (autocannon's headline figure). */
  rps: number;
  completed: number;
  /** Latency percentiles in ms, from every response's own timing (autocannon's histogram rounds to whole ms). */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  autocannon: Pick<Result, "latency" | "requests" | "throughput" | "duration">;
}

/** Latencies as they arrive, in a growable typed array (millions of samples stay cheap). */
class Samples {
  private values = new Float64Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  percentiles(...ps: number[]): number[] {
    if (this.length === 0) return ps.map(() => 0);
    const sorted = this.values.slice(0, this.length).sort();
    return ps.map((p) => sorted[Math.min(this.length - 1, Math.max(0, Math.ceil((p / 100) * this.length) - 1))]!);
  }
}

let running: Instance | null = null;

/** Stops the run in progress, if any (its promise then resolves with what was measured). */
export function stopRunningLoad(): void {
  running?.stop();
}

/** Drives `request` against `baseUrl` from this process for `duration` seconds. */
export function runLoad(baseUrl: string, request: BenchRequest, options: LoadOptions): Promise<LoadResult> {
  const headers = { ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
    headers["content-type"] ??= "application/json";
  }
  const bodies = request.bodies?.map((each) => (typeof each === "string" ? each : JSON.stringify(each)));
  let next = 0;
  // One request template whose body (or, for `once` lists, path and headers too) changes each time it is sent.
  const requests = request.once
    ? [{ setupRequest: (sent: object) => onceRequest(sent, request.once![next++]!, headers) }]
    : bodies && [{ setupRequest: (sent: { body?: string }) => ({ ...sent, body: bodies[next++ % bodies.length] }) }];
  const latencies = new Samples();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl + request.path,
        method: request.method,
        headers,
        body,
        ...(requests && { requests }),
        connections: Math.min(options.connections, request.once?.length ?? options.connections),
        pipelining: options.pipelining,
        duration: options.duration,
        // A `once` list is sent exactly, however long it takes.
        ...(request.once && { amount: request.once.length }),
        timeout: 10,
      },
      (error, result) => {
        running = null;
        if (error) return reject(error);
        const [p50, p90, p99, max] = latencies.percentiles(50, 90, 99, 100);
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
        resolve({
          // A `once` run ends when its list is done: its rate is what it did over the time it took.
          rps: request.once ? latencies.length / result.duration : result.requests.average,
          completed: latencies.length,
          p50Ms: p50!,
          p90Ms: p90!,
          p99Ms: p99!,
          maxMs: max!,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
          autocannon: { latency: result.latency, requests: result.requests, throughput: result.throughput, duration: result.duration },
        });
      },
    );
    running = instance;
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  });
}

/** A `once` request as autocannon sends it: the template with its own path, headers and JSON body. */
function onceRequest(sent: object, next: { path: string; headers?: Record<string, string>; body?: unknown }, headers: Record<string, string>) {
  const body = next.body === undefined ? undefined : typeof next.body === "string" ? next.body : JSON.stringify(next.body);
  return { ...sent, path: next.path, headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }), ...next.headers }, body };
}
