import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { sqliteFilePath } from "../../src/db/database";
import { PAUSED_MARKER, type PausePoint } from "../../src/test-pause";
import { pollUntil, type Running } from "./main-process";

/**
 * The airline's seat holds set against the committed orders, read straight from the database a
 * real process (main-process.ts) serves, from outside it: for the crash-window suites, which
 * kill the process and count what it left.
 */
export interface SeatAccount {
  /** Seats held per booking (order id), whatever the order's state. */
  held: Map<string, number>;
  /** Committed orders by id, with their state. */
  orders: Map<string, string>;
  /** Held seats with no committed order, or whose order no longer owns seats (cancelled, failed, refunded): leaked. */
  leaked: string[];
  /** Orders that own seats (pending, processing, ticketed) and hold none at the airline. */
  missing: string[];
  /** Seat intents not yet settled, by their id (the order's for a hold or release, the addition's or change's otherwise). */
  intents: Map<string, { kind: string; orderId: string }>;
  /** Seats chosen by designator that the airline assigns (SeatAssignment rows), per booking. */
  assigned: Map<string, number>;
  /** Bookings whose seats the airline assigns are not the seats on their order (none for an order that owns no seats): sold twice, or not sold. */
  seatsDisagreeing: string[];
}

const OWNING = new Set(["PENDING", "PROCESSING", "TICKETED"]);

type Reader = (sql: string) => Promise<Array<Record<string, unknown>>>;

async function withReader<T>(url: string, work: (read: Reader) => Promise<T>): Promise<T> {
  if (url.startsWith("file:")) {
    // Read-only beside the serving process: WAL lets it read while the process writes.
    const connection = new BetterSqlite3(sqliteFilePath(url), { readonly: true, fileMustExist: true });
    try {
      return await work(async (sql) => connection.prepare(sql).all() as Array<Record<string, unknown>>);
    } finally {
      connection.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(async (sql) => (await client.query(sql)).rows);
  } finally {
    await client.end();
  }
}

/** Counts seats now: SeatHold rows against committed orders, and the open seat intents. */
export function seatAccount(url: string): Promise<SeatAccount> {
  return withReader(url, async (read) => {
    const holds = await read(`SELECT "holdId", SUM("seats") AS "seats" FROM "SeatHold" GROUP BY "holdId"`);
    const orders = await read(`SELECT "id", "status", "services" FROM "Order"`);
    const intents = await read(`SELECT "id", "orderId", "kind" FROM "SeatIntent"`);
    const assignments = await read(`SELECT "holdId", COUNT(*) AS "seats" FROM "SeatAssignment" GROUP BY "holdId"`);
    const held = new Map(holds.map((row) => [String(row.holdId), Number(row.seats)]));
    const byId = new Map(orders.map((row) => [String(row.id), String(row.status)]));
    const assigned = new Map(assignments.map((row) => [String(row.holdId), Number(row.seats)]));
    const seatServices = new Map(
      orders.map((row) => {
        const services = (typeof row.services === "string" ? JSON.parse(row.services) : row.services) as Array<{ type: string }>;
        return [String(row.id), OWNING.has(String(row.status)) ? services.filter((service) => service.type === "seat").length : 0];
      }),
    );
    const bookings = new Set([...assigned.keys(), ...seatServices.keys()]);
    return {
      assigned,
      seatsDisagreeing: [...bookings].filter((id) => (assigned.get(id) ?? 0) !== (seatServices.get(id) ?? 0)),
      held,
      orders: byId,
      leaked: [...held.keys()].filter((id) => !OWNING.has(byId.get(id) ?? "")),
      missing: [...byId].filter(([id, status]) => OWNING.has(status) && !held.has(id)).map(([id]) => id),
      intents: new Map(intents.map((row) => [String(row.id), { kind: String(row.kind), orderId: String(row.orderId) }])),
    };
  });
}

/** Polls until every held seat is in a committed order that owns it and no intent is open; returns that account. */
export function settledAccount(running: Running, url: string, deadlineMs = 30_000): Promise<SeatAccount> {
  return pollUntil(
    running,
    "every seat held to be in a committed order or back on sale",
    async () => {
      const account = await seatAccount(url);
      return account.leaked.length === 0 && account.intents.size === 0 ? account : undefined;
    },
    deadlineMs,
  );
}

const MARKER = new RegExp(`^${PAUSED_MARKER} (\\S+) (\\{.*\\})$`, "gm");

/** The requests paused so far at `point` (AEROGATE_TEST_PAUSE_AT), in order, as their marker lines name them. */
function pausedAt(running: Running, point: PausePoint): Array<Record<string, string>> {
  return [...running.stdout().matchAll(MARKER)].filter((match) => match[1] === point).map((match) => JSON.parse(match[2]!));
}

/** Waits until the `nth` request (1-based) has paused at `point`; returns what its marker line names (e.g. the order id). */
export function waitForPause(running: Running, point: PausePoint, nth = 1): Promise<Record<string, string>> {
  return pollUntil(running, `request ${nth} paused at ${point}`, async () => pausedAt(running, point)[nth - 1]);
}

/** Lets every request paused in the process go on (a `resume` line on its stdin). */
export function resumePaused(running: Running): void {
  running.child.stdin.write("resume\n");
}
