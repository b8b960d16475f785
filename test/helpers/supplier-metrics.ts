import { call, type Endpoint } from "./client";

/** The sum of the server's Prometheus samples of `name` whose labels include every one of `labels` (e.g. `supplier="simulated_lcc"`); 0 when none. */
export async function metricValue(server: Endpoint, name: string, ...labels: string[]): Promise<number> {
  const metrics = String((await call<string>(server, "GET", "/metrics")).body);
  return metrics
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}
