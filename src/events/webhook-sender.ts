import http from "node:http";
import https from "node:https";
import { FORBIDDEN_DESTINATION, isForbiddenAddress, literalAddress, publicAddressLookup } from "./webhook-destinations";

/**
 * The most of a receiver's answer body read: its status is the answer, so a body is drained only
 * to keep the connection for the next delivery, and a large one is cut off instead.
 */
export const MAX_ANSWER_BODY_BYTES = 16 * 1024;

export interface WebhookRequest {
  url: string;
  body: string;
  /** The signature headers (webhook-id, webhook-timestamp, webhook-signature). */
  headers: Record<string, string>;
  /** Cuts the whole attempt (a deadline, not an idle timeout): connect, request, answer and its body. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS; when false, only public addresses are connected to, for every tenant. */
  allowPrivateNetworks: boolean;
  /** Aborts the attempt (shutdown): it ends as `interrupted`. */
  signal: AbortSignal;
  connections: WebhookConnections;
}

/**
 * What the delivery log says of an attempt that reached no receiver: no more. The resolver's or
 * the socket's own words (a name's addresses, "getaddrinfo ENOTFOUND …", "connect ECONNREFUSED
 * 10.0.0.5:443") would let a tenant map the server's DNS and network through its log.
 */
const DESTINATION_NOT_ALLOWED = "destination not allowed";
const DESTINATION_UNREACHABLE = "destination unreachable";

/** How an attempt ended: the receiver answered (any status; redirects are not followed), or why it did not. */
export type AttemptEnding =
  | { outcome: "answered"; statusCode: number; retryAfter: string | undefined }
  | { outcome: "timeout" | "network_error" | "forbidden_destination" | "interrupted"; error: string };

export type WebhookResponse = AttemptEnding & { durationMs: number };

/**
 * Kept-alive connections, in two pools that never share a socket: one whose every connection was
 * made to an address checked as public (live tenants), one unchecked. A pooled socket stays
 * connected to the address it was checked for, so reusing it cannot reach a private network.
 */
export class WebhookConnections {
  readonly #pools = {
    checked: { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) },
    unchecked: { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) },
  };

  agentFor(target: URL, checked: boolean): http.Agent {
    return this.#pools[checked ? "checked" : "unchecked"][target.protocol === "https:" ? "https:" : "http:"];
  }

  /** Closes every kept-alive connection (at shutdown). */
  close(): void {
    for (const pool of Object.values(this.#pools)) for (const agent of Object.values(pool)) agent.destroy();
  }
}

/** POSTs one webhook attempt. Never throws: every ending is a `WebhookResponse`. */
export function postWebhook(request: WebhookRequest): Promise<WebhookResponse> {
  const startedAt = performance.now();
  const target = new URL(request.url);
  const literal = literalAddress(target);
  if (!request.allowPrivateNetworks && literal !== null && isForbiddenAddress(literal)) {
    return Promise.resolve({ outcome: "forbidden_destination", error: DESTINATION_NOT_ALLOWED, durationMs: 0 });
  }
  return new Promise((resolve) => {
    let settled = false;
    const end = (ending: AttemptEnding) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      // A complete answer leaves the socket to its pool; anything else closes it.
      if (ending.outcome !== "answered") outgoing.destroy();
      resolve({ ...ending, durationMs: Math.round(performance.now() - startedAt) });
    };
    const onAbort = () => end({ outcome: "interrupted", error: "the server shut down during the attempt" });
    const client = target.protocol === "https:" ? https : http;
    const outgoing = client.request(
      target,
      {
        method: "POST",
        headers: { ...request.headers, "content-type": "application/json", "content-length": Buffer.byteLength(request.body), "user-agent": "Aerogate-Webhooks/1" },
        agent: request.connections.agentFor(target, !request.allowPrivateNetworks),
        // New connections of the checked pool go only to addresses resolved and checked as public.
        lookup: request.allowPrivateNetworks ? undefined : publicAddressLookup,
      },
      (answer) => {
        const answered = (): AttemptEnding => ({ outcome: "answered", statusCode: answer.statusCode ?? 0, retryAfter: answer.headers["retry-after"] });
        let bodyBytes = 0;
        answer.on("data", (chunk: Buffer) => {
          bodyBytes += chunk.length;
          if (bodyBytes <= MAX_ANSWER_BODY_BYTES) return;
          // Only the status counts: the rest of a large body is not read, and the connection is closed.
          end(answered());
          outgoing.destroy();
        });
        answer.on("end", () => end(answered()));
        answer.on("error", () => end({ outcome: "network_error", error: DESTINATION_UNREACHABLE }));
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      end(error.code === FORBIDDEN_DESTINATION ? { outcome: "forbidden_destination", error: DESTINATION_NOT_ALLOWED } : { outcome: "network_error", error: DESTINATION_UNREACHABLE }),
    );
    const timer = setTimeout(() => end({ outcome: "timeout", error: `no complete answer within ${request.timeoutMs} ms` }), request.timeoutMs);
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener("abort", onAbort, { once: true });
    outgoing.end(request.body);
  });
}
