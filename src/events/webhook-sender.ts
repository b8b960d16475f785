import http from "node:http";
import https from "node:https";
import { FORBIDDEN_DESTINATION, forbiddenLiteral, isForbiddenAddress, literalAddress, publicAddressLookup } from "./webhook-destinations";

export interface WebhookRequest {
  url: string;
  body: string;
  /** The signature headers (webhook-id, webhook-timestamp, webhook-signature). */
  headers: Record<string, string>;
  /** Cuts the whole attempt: connect, request, answer and its body. */
  timeoutMs: number;
  /** False for live tenants (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS): only public addresses are connected to. */
  allowPrivateNetworks: boolean;
  /** Aborts the attempt (shutdown): it ends as `interrupted`. */
  signal: AbortSignal;
}

/** How an attempt ended: the receiver answered (any status; redirects are not followed), or why it did not. */
export type AttemptEnding =
  | { outcome: "answered"; statusCode: number; retryAfter: string | undefined }
  | { outcome: "timeout" | "network_error" | "forbidden_destination" | "interrupted"; error: string };

export type WebhookResponse = AttemptEnding & { durationMs: number };

/** POSTs one webhook attempt. Never throws: every ending is a `WebhookResponse`. */
export function postWebhook(request: WebhookRequest): Promise<WebhookResponse> {
  const startedAt = performance.now();
  const target = new URL(request.url);
  const literal = literalAddress(target);
  if (!request.allowPrivateNetworks && literal !== null && isForbiddenAddress(literal)) {
    return Promise.resolve({ outcome: "forbidden_destination", error: forbiddenLiteral(literal).message, durationMs: 0 });
  }
  return new Promise((resolve) => {
    let settled = false;
    const end = (ending: AttemptEnding) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      outgoing.destroy();
      resolve({ ...ending, durationMs: Math.round(performance.now() - startedAt) });
    };
    const onAbort = () => end({ outcome: "interrupted", error: "the server shut down during the attempt" });
    const client = target.protocol === "https:" ? https : http;
    const outgoing = client.request(
      target,
      {
        method: "POST",
        headers: { ...request.headers, "content-type": "application/json", "content-length": Buffer.byteLength(request.body), "user-agent": "Aerogate-Webhooks/1" },
        // No pooled connection: each attempt connects to an address checked for this tenant.
        agent: false,
        lookup: request.allowPrivateNetworks ? undefined : publicAddressLookup,
      },
      (answer) => {
        answer.resume();
        answer.on("end", () => end({ outcome: "answered", statusCode: answer.statusCode ?? 0, retryAfter: answer.headers["retry-after"] }));
        answer.on("error", (error) => end({ outcome: "network_error", error: error.message }));
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      end(error.code === FORBIDDEN_DESTINATION ? { outcome: "forbidden_destination", error: error.message } : { outcome: "network_error", error: error.message || String(error.code) }),
    );
    const timer = setTimeout(() => end({ outcome: "timeout", error: `no complete answer within ${request.timeoutMs} ms` }), request.timeoutMs);
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener("abort", onAbort, { once: true });
    outgoing.end(request.body);
  });
}
