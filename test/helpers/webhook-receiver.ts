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

/**
 * How a tarpit treats a delivery, once it has read the request: `silent` never answers;
 * `trickle` sends its answer one byte every `everyMs`; `flood` answers 200 with a body of
 * `bodyBytes` (10 MB by default), written as fast as the client reads it.
 */
export type TarpitKind = "silent" | "trickle" | "flood";

/** One connection a tarpit accepted. */
export interface TarpitConnection {
  /** The request's path (a tarpit serves many destinations, one path each). */
  path: string;
  /** Date.now() when the connection was accepted. */
  openedAt: number;
  /** Date.now() when the connection closed; null while open. */
  closedAt: number | null;
  /** Bytes of its answer handed to the socket. */
  bytesWritten: number;
}

export interface Tarpit {
  /** e.g. http://127.0.0.1:54321/t3 */
  url(path: string): string;
  connections: TarpitConnection[];
  /** Connections open now, to `path` or to any. */
  openNow(path?: string): number;
  /** The most connections that were ever open at once to `path`. */
  mostOpenAtOnce(path: string): number;
  close(): Promise<void>;
}

/**
 * A hostile webhook receiver at the TCP level: it accepts the connection and reads the request,
 * then misbehaves as `kind` says, recording each connection (path, when it opened and closed,
 * how much of its answer it wrote).
 */
export async function startTarpit(kind: TarpitKind, options: { everyMs?: number; bodyBytes?: number } = {}): Promise<Tarpit> {
  const connections: TarpitConnection[] = [];
  const sockets = new Set<net.Socket>();
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const acceptedAt = Date.now();
    let head = "";
    let connection: TarpitConnection | null = null;
    const timers: NodeJS.Timeout[] = [];
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      for (const timer of timers) clearInterval(timer);
      if (!connection) return;
      connection.closedAt = Date.now();
      open.set(connection.path, (open.get(connection.path) ?? 1) - 1);
    });
    socket.on("data", (chunk: Buffer) => {
      if (connection) return;
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      const path = /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? "/";
      connection = { path, openedAt: acceptedAt, closedAt: null, bytesWritten: 0 };
      connections.push(connection);
      const count = (open.get(path) ?? 0) + 1;
      open.set(path, count);
      most.set(path, Math.max(most.get(path) ?? 0, count));
      const accepted = connection;
      const write = (data: string | Buffer) => {
        accepted.bytesWritten += data.length;
        return socket.write(data);
      };
      if (kind === "trickle") {
        const answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        let sent = 0;
        timers.push(setInterval(() => sent < answer.length && !socket.destroyed && write(answer[sent++]!), options.everyMs ?? 1000));
      }
      if (kind === "flood") {
        const total = options.bodyBytes ?? 10 * 1024 * 1024;
        write(`HTTP/1.1 200 OK\r\ncontent-length: ${total}\r\n\r\n`);
        const piece = Buffer.alloc(64 * 1024, 120);
        let left = total;
        const pour = () => {
          while (left > 0 && !socket.destroyed) {
            left -= piece.length;
            if (!write(piece)) return void socket.once("drain", pour);
          }
        };
        pour();
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    connections,
    openNow: (path) => (path === undefined ? [...open.values()].reduce((sum, count) => sum + count, 0) : (open.get(path) ?? 0)),
    mostOpenAtOnce: (path) => most.get(path) ?? 0,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
