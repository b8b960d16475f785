import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";

/**
 * A TCP proxy a test controls, standing between a server and its database: cutting it is a
 * database outage for that server alone (the shared PostgreSQL server keeps serving everyone
 * else), restoring it is the database's return.
 */
export interface TcpProxy {
  /** The proxy's port on 127.0.0.1 (fixed for its life: a restored proxy listens there again). */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /**
   * The database goes away: every open connection is destroyed and new ones are refused
   * (`refuse`: nothing listens, ECONNREFUSED) or accepted and dropped at once (`reset`).
   */
  cut(mode?: "refuse" | "reset"): Promise<void>;
  /** The database is back: connections are forwarded again. */
  restore(): Promise<void>;
  /** Connections forwarded since the proxy started. */
  readonly connectionsForwarded: number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Listen on this port (one reserved by `freePort`); a free one otherwise. */
  port?: number;
  /** Start cut: nothing listens until `restore` (a database not there yet). */
  startCut?: boolean;
}

/** A port nothing listens on right now (bound on port 0, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Forwards 127.0.0.1:<port> to `target` (host:port), with the switch described by TcpProxy. */
export async function startTcpProxy(target: { host: string; port: number }, options: ProxyOptions = {}): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let mode: "forward" | "reset" = "forward";
  let forwarded = 0;
  let server: Server | null = null;

  const accept = (client: Socket) => {
    if (mode === "reset") {
      client.resetAndDestroy();
      return;
    }
    forwarded++;
    const upstream = connect(target.port, target.host);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const listen = async (port: number) => {
    const listening = createServer(accept);
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => resolve());
    });
    server = listening;
    return (listening.address() as AddressInfo).port;
  };
  const dropAll = () => {
    for (const socket of open) socket.resetAndDestroy();
    open.clear();
  };
  /** Stops accepting and drops every connection (close's callback waits for them to end). */
  const stopListening = async () => {
    const listening = server;
    server = null;
    const closed = listening ? new Promise<void>((resolve) => listening.close(() => resolve())) : Promise.resolve();
    dropAll();
    await closed;
  };

  const port = options.startCut ? (options.port ?? (await freePort())) : await listen(options.port ?? 0);
  return {
    port,
    via(url) {
      const rewritten = new URL(url);
      rewritten.hostname = "127.0.0.1";
      rewritten.port = String(port);
      return rewritten.toString();
    },
    async cut(how = "refuse") {
      if (how === "refuse") {
        await stopListening();
        return;
      }
      mode = "reset";
      dropAll();
    },
    async restore() {
      mode = "forward";
      if (!server) await listen(port);
    },
    get connectionsForwarded() {
      return forwarded;
    },
    async close() {
      await stopListening();
    },
  };
}
