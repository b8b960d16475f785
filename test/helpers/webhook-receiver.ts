import http, { type IncomingHttpHeaders } from "node:http";
import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { eventually } from "./eventually";

/** One request the receiver got. */
export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as text, as signed. */
  body: string;
  /** The body's bytes as they came over the wire. */
  raw: Buffer;
  json: any;
  /** Date.now() when the body was complete. */
  at: number;
}

/** How the receiver answers a request; `hang` never answers. */
export type Answer = { status: number; headers?: Record<string, string> } | "hang";

/** Decides the answer to the `index`-th request (0-based) carrying `hook`. */
export type Responder = (hook: ReceivedHook, index: number) => Answer;

export interface Receiver {
  /** e.g. http://127.0.0.1:54321/hooks */
  url: string;
  port: number;
  received: ReceivedHook[];
  /** Requests whose payload is the event `type` of `orderId`, in arrival order. */
  eventsOf(orderId: string, type?: string): ReceivedHook[];
  /** Waits until `count` requests carry `type` for `orderId`. */
  waitFor(orderId: string, type: string, count?: number, deadlineMs?: number): Promise<ReceivedHook[]>;
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

/**
 * A port nothing listens on right now (bind to 0, read it, release it): for a receiver that must
 * be down at first and start later on the address the server already has. Only receivers use it;
 * the server itself always binds port 0.
 */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A webhook receiver: a real HTTP server on a free port of 127.0.0.1 (or `port`), recording
 * every request and answering as its responder says (200 by default).
 */
export async function startReceiver(options: { port?: number; responder?: Responder } = {}): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  let responder: Responder = options.responder ?? (() => ({ status: 200 }));
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const hook: ReceivedHook = { path: request.url ?? "", headers: request.headers, body, raw, json, at: Date.now() };
      received.push(hook);
      const answer = responder(hook, received.length - 1);
      if (answer === "hang") return;
      response.writeHead(answer.status, answer.headers).end("ok");
    });
  });
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const eventsOf = (orderId: string, type?: string) => received.filter((hook) => hook.json?.data?.id === orderId && (type === undefined || hook.json?.event === type));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    eventsOf,
    waitFor: (orderId, type, count = 1, deadlineMs = 15_000) =>
      eventually(
        async () => (eventsOf(orderId, type).length >= count ? eventsOf(orderId, type) : undefined),
        () => `${count} × ${type} of ${orderId} not received (got ${received.map((hook) => hook.json?.event).join(", ") || "nothing"})`,
        deadlineMs,
      ),
    respondWith(next) {
      responder = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
