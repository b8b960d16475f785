import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { appError } from "../errors/app-error";
import { graphqlErrorExtensions, restErrorBody } from "../errors/render-error";
import type { DatabaseWait } from "../db/wait-for-database";
import { clock } from "../clock";
import { requestIdFor } from "./request-id";

/** Retry-After of the answers given while the process waits for its database. */
const RETRY_AFTER_SECONDS = 2;

/** What answers on the port while the process waits for its database at start. */
export interface WaitingServer {
  /** The address it listens on, e.g. http://127.0.0.1:4000. */
  address: string;
  port: number;
  /** Says why it waits (the database's last refusal). */
  update(wait: DatabaseWait): void;
  /** Stops listening and drops its connections, so the app can listen on the port. */
  close(): Promise<void>;
}

/**
 * Listens on the configured port while the process waits for its database at start
 * (db/wait-for-database.ts), so a supervisor sees it alive: `/healthz` answers 200, `/readyz`
 * 503 naming the database and why it waits, and every other request 503 `service_unavailable`
 * with Retry-After, in the catalogue's shape (GraphQL's on /graphql).
 */
export async function startWaitingServer(port: number, host: string, first: DatabaseWait): Promise<WaitingServer> {
  let wait = first;
  const server = http.createServer((request, response) => answer(request, response, wait));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    address: `http://${bound.family === "IPv6" ? `[${bound.address}]` : bound.address}:${bound.port}`,
    port: bound.port,
    update(next) {
      wait = next;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function answer(request: IncomingMessage, response: ServerResponse, wait: DatabaseWait): void {
  const requestId = requestIdFor(request);
  const path = (request.url ?? "/").split("?")[0];
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "cache-control": "no-store", ...headers });
    response.end(JSON.stringify(body));
  };
  // The body is not needed: drain it so the connection stays usable.
  request.resume();
  if (request.method === "GET" && path === "/healthz") return send(200, { status: "ok" });
  if (request.method === "GET" && path === "/readyz") {
    return send(503, {
      status: "not_ready",
      database: "unreachable",
      name: wait.name,
      reason: `waiting for the database since ${wait.since.toISOString()}: ${wait.reason}`,
      since: wait.since.toISOString(),
      givesUpAt: wait.givesUpAt.toISOString(),
      waitedSeconds: Math.round((clock.nowMs() - wait.since.getTime()) / 1000),
    });
  }
  const refusal = appError("service_unavailable", { retryAfterSeconds: RETRY_AFTER_SECONDS, reason: "The service is starting and waits for its database." });
  const headers = { "retry-after": String(RETRY_AFTER_SECONDS) };
  if (path === "/graphql") return send(503, { errors: [{ message: refusal.message, extensions: graphqlErrorExtensions(refusal) }] }, headers);
  send(503, restErrorBody(refusal, { requestId, environment: null }), headers);
}
