import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { clock } from "../clock";
import { databaseFault } from "../db/errors";
import { PrimaryLocator } from "../db/primary-locator";
import type { Config } from "../config";
import type { Database } from "../db/database";
import type { Logger } from "../logger";

export type PubSubChannel = "auth" | "orders" | "wallets" | "batches" | "pricing";
export type PubSubHandler = (payload: unknown) => void;

/**
 * Messages between the server processes that share one database: cache invalidations now,
 * subscription events later. Handlers run in every process, the publisher's included.
 */
export interface PubSub {
  /**
   * Resolves once every process can see the message (see PostgresPubSub for how). Never
   * rejects: it is called after a commit, which a lost connection must not turn into a failure.
   */
  publish(channel: PubSubChannel, payload: unknown): Promise<void>;
  subscribe(channel: PubSubChannel, handler: PubSubHandler): () => void;
  /** Called after the connection was lost (at `lostAt`) and restored: messages may have been missed. */
  onResync(handler: (lostAt: Date) => void): void;
  close(): Promise<void>;
}

/** The process's PubSub: LISTEN/NOTIFY on PostgreSQL (on DATABASE_LISTEN_URL when set), in memory on SQLite. */
export async function connectPubSub(config: Pick<Config, "DATABASE_URL" | "DATABASE_LISTEN_URL">, db: Database, log: Logger): Promise<PubSub> {
  return db.provider === "postgresql" ? PostgresPubSub.connect(config.DATABASE_LISTEN_URL ?? config.DATABASE_URL, log) : new LocalPubSub();
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
/**
 * Each listener session holds a session-level advisory lock (this class, its backend pid), so a
 * publisher counts the listening processes in pg_locks: a lock goes with its session, and no
 * pooled connection ever takes one (an application name, which PgBouncer hands from one server
 * connection to the next, made pooled connections count as listeners).
 */
const LISTENER_LOCK_CLASS = 0x41657267;
/** How long opening the listener's connection may take before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 5000;
/** A process that died after being counted must not hold a publish for long. */
const ACK_TIMEOUT_MS = 2000;
/** Reconnection attempts back off to this, so the listener is back within a quarter second of the database. */
const MAX_RECONNECT_DELAY_MS = 250;
/** Messages published while the listener was away, sent to the other processes once it is back. */
const MAX_UNSENT = 1000;

interface Envelope {
  id: string;
  channel: PubSubChannel;
  payload: unknown;
}

/** A listener's receipt: it has run its handlers for message `ack`. */
interface Ack {
  ack: string;
}

/**
 * Several processes on PostgreSQL: LISTEN/NOTIFY on a dedicated connection.
 *
 * `publish` resolves once every listening process has run its handlers for the message: each
 * listener answers a message with a receipt, and the publisher waits for as many receipts as
 * there are listener sessions (counted by their advisory locks). So a revoked key is refused by
 * every process before the revoke returns, not merely sent to it.
 *
 * The listener connects directly to PostgreSQL (`DATABASE_LISTEN_URL`, which may name several
 * hosts: it follows the primary as the pool does), never through a transaction-pooling PgBouncer,
 * where a LISTEN stays with a server connection the client no longer holds.
 */
export class PostgresPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  /** Per message published here: called with each receipt. */
  private readonly awaitingReceipts = new Map<string, () => void>();
  private readonly resyncHandlers: Array<(lostAt: Date) => void> = [];
  /** Published while the listener was away: this process has run its handlers, the others have not heard them. */
  private readonly unsent: Envelope[] = [];
  /** Ids of `unsent` messages sent since, whose echo this process must not handle twice. */
  private readonly handledHere = new Set<string>();
  private listener: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly primary: PrimaryLocator,
    private readonly log: Logger,
  ) {}

  /** Listens on `url` (DATABASE_LISTEN_URL, or DATABASE_URL when that reaches PostgreSQL directly). */
  static async connect(url: string, log: Logger): Promise<PostgresPubSub> {
    const pubsub = new PostgresPubSub(new PrimaryLocator(url, CONNECT_TIMEOUT_MS), log);
    await pubsub.listen();
    return pubsub;
  }

  private async listen(): Promise<void> {
    await this.primary.locate();
    const client = new pg.Client({ connectionString: this.primary.currentUrl(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    client.on("notification", (message) => this.receive(message.payload));
    client.on("error", (error) => {
      if (this.listener !== client) return;
      this.log.warn({ reason: databaseFault(error)?.reason ?? error.message }, "pubsub listener lost its connection; reconnecting");
      void this.reconnect(client);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
      await client.query(`SELECT pg_advisory_lock(${LISTENER_LOCK_CLASS}, pg_backend_pid())`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.listener = client;
  }

  private async reconnect(broken: pg.Client): Promise<void> {
    if (this.closed || this.listener !== broken) return;
    const lostAt = clock.now();
    this.listener = null;
    await broken.end().catch(() => undefined);
    for (let attempt = 1; !this.closed; attempt++) {
      try {
        await this.listen();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** attempt)));
        continue;
      }
      await this.sendUnsent();
      for (const handler of this.resyncHandlers) handler(lostAt);
      return;
    }
  }

  private receive(raw: string | undefined): void {
    if (!raw) return;
    const message = JSON.parse(raw) as Envelope | Ack;
    if ("ack" in message) {
      this.awaitingReceipts.get(message.ack)?.();
      return;
    }
    // Its handlers ran here when it was published, while the listener was away.
    if (this.handledHere.delete(message.id)) return;
    this.emitter.emit(message.channel, message.payload);
    const receipt: Ack = { ack: message.id };
    this.listener?.query("SELECT pg_notify($1, $2)", [PG_CHANNEL, JSON.stringify(receipt)]).catch(() => undefined);
  }

  async publish(channel: PubSubChannel, payload: unknown): Promise<void> {
    const envelope: Envelope = { id: randomUUID(), channel, payload };
    const listener = this.listener;
    if (listener) {
      try {
        await this.publishVia(listener, envelope);
        return;
      } catch {
        // The connection went during the publish: the message is handled here and sent on later.
      }
    }
    this.emitter.emit(channel, payload);
    if (this.unsent.length < MAX_UNSENT) this.unsent.push(envelope);
  }

  /** NOTIFY on the listener's connection, then wait for every listening process's receipt. */
  private async publishVia(listener: pg.Client, envelope: Envelope): Promise<void> {
    const { rows } = await listener.query<{ listeners: number }>(
      `SELECT count(*)::int AS listeners FROM pg_locks
       WHERE locktype = 'advisory' AND classid = ${LISTENER_LOCK_CLASS} AND objsubid = 2 AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    let awaited = rows[0]?.listeners ?? 1;
    const received = new Promise<void>((resolve) => {
      const timer = setTimeout(() => settle(), ACK_TIMEOUT_MS);
      const settle = () => {
        clearTimeout(timer);
        this.awaitingReceipts.delete(envelope.id);
        resolve();
      };
      // A listener that connected after the count may answer too; enough receipts is enough.
      this.awaitingReceipts.set(envelope.id, () => {
        if (--awaited <= 0) settle();
      });
    });
    try {
      await listener.query("SELECT pg_notify($1, $2)", [PG_CHANNEL, JSON.stringify(envelope)]);
    } catch (error) {
      this.awaitingReceipts.delete(envelope.id);
      throw error;
    }
    await received;
  }

  /** Tells the other processes what was published here while the listener was away. */
  private async sendUnsent(): Promise<void> {
    const listener = this.listener;
    while (listener && this.unsent.length > 0 && this.listener === listener) {
      const envelope = this.unsent[0]!;
      this.handledHere.add(envelope.id);
      try {
        await listener.query("SELECT pg_notify($1, $2)", [PG_CHANNEL, JSON.stringify(envelope)]);
      } catch {
        this.handledHere.delete(envelope.id);
        return;
      }
      this.unsent.shift();
    }
  }

  subscribe(channel: PubSubChannel, handler: PubSubHandler): () => void {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }

  onResync(handler: (lostAt: Date) => void): void {
    this.resyncHandlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emitter.removeAllListeners();
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
  }
}
