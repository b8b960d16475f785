import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "../logger";

export type PubSubChannel = "auth";
export type PubSubHandler = (payload: unknown) => void;

/**
 * Messages between the server processes that share one database: cache invalidations now,
 * subscription events later. Handlers run in every process, the publisher's included.
 */
export interface PubSub {
  /** Resolves once every process can see the message (see PostgresPubSub for how). */
  publish(channel: PubSubChannel, payload: unknown): Promise<void>;
  subscribe(channel: PubSubChannel, handler: PubSubHandler): () => void;
  /** Called after the connection was lost and restored: messages may have been missed. */
  onResync(handler: () => void): void;
  close(): Promise<void>;
}

/** One process (SQLite): an in-memory emitter; delivery is synchronous. */
export class LocalPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: PubSubChannel, payload: unknown): Promise<void> {
    this.emitter.emit(channel, payload);
  }

  subscribe(channel: PubSubChannel, handler: PubSubHandler): () => void {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }

  onResync(): void {
    // One process never misses its own messages.
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const PG_CHANNEL = "aerogate";
const ECHO_TIMEOUT_MS = 2000;

interface Envelope {
  id: string;
  channel: PubSubChannel;
  payload: unknown;
}

/**
 * Several processes on PostgreSQL: LISTEN/NOTIFY on a dedicated connection.
 *
 * `publish` waits until this process's own listener hears the message back. PostgreSQL hands
 * a notification to every listening session at the same moment, so when our echo arrives the
 * other processes have it too: a revoked key is refused everywhere before the revoke returns.
 */
export class PostgresPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly awaitingEcho = new Map<string, () => void>();
  private readonly resyncHandlers: Array<() => void> = [];
  private listener: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  static async connect(url: string, log: Logger): Promise<PostgresPubSub> {
    const pubsub = new PostgresPubSub(url, log);
    await pubsub.listen();
    return pubsub;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => this.receive(message.payload));
    client.on("error", (error) => {
      this.log.warn({ err: error }, "pubsub listener lost its connection; reconnecting");
      void this.reconnect(client);
    });
    await client.connect();
    await client.query(`LISTEN ${PG_CHANNEL}`);
    this.listener = client;
  }

  private async reconnect(broken: pg.Client): Promise<void> {
    if (this.closed || this.listener !== broken) return;
    this.listener = null;
    await broken.end().catch(() => undefined);
    for (let attempt = 1; !this.closed; attempt++) {
      try {
        await this.listen();
        for (const handler of this.resyncHandlers) handler();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** attempt)));
      }
    }
  }

  private receive(raw: string | undefined): void {
    if (!raw) return;
    const envelope = JSON.parse(raw) as Envelope;
    this.emitter.emit(envelope.channel, envelope.payload);
    this.awaitingEcho.get(envelope.id)?.();
  }

  async publish(channel: PubSubChannel, payload: unknown): Promise<void> {
    const listener = this.listener;
    if (!listener) throw new Error("pubsub is not connected");
    const envelope: Envelope = { id: randomUUID(), channel, payload };
    const echoed = new Promise<void>((resolve) => {
      const timer = setTimeout(() => settle(), ECHO_TIMEOUT_MS);
      const settle = () => {
        clearTimeout(timer);
        this.awaitingEcho.delete(envelope.id);
        resolve();
      };
      this.awaitingEcho.set(envelope.id, settle);
    });
    await listener.query("SELECT pg_notify($1, $2)", [PG_CHANNEL, JSON.stringify(envelope)]);
    await echoed;
  }

  subscribe(channel: PubSubChannel, handler: PubSubHandler): () => void {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }

  onResync(handler: () => void): void {
    this.resyncHandlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emitter.removeAllListeners();
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
  }
}
