import { expect } from "vitest";
import type { ClaimedJob } from "../../src/orders/jobs/order-job-queue";
import { eventually } from "./eventually";
import { allTransactions, signedMinor } from "./orders";
import type { TestServer } from "./test-server";

/**
 * What the ticketing-lease suites watch and assert: the job claims a server's worker makes, the
 * job's lease in the database, and an order's outcome written exactly once.
 */

/** A claim of the job worker, and which server made it. */
export interface SeenClaim {
  server: string;
  job: ClaimedJob;
  claimedAt: Date;
}

/** Records every claim `server`'s worker makes into `claims`; returns what stops recording. */
export function recordClaims(server: TestServer, name: string, claims: SeenClaim[]): () => void {
  return server.app.services.jobWorker.onClaimed((job, claimedAt) => claims.push({ server: name, job, claimedAt }));
}

/** The claims of `orderId`'s jobs, once there are `count` of them (polled). */
export function waitForClaims(claims: SeenClaim[], orderId: string, count: number, deadlineMs = 15_000): Promise<SeenClaim[]> {
  const of = () => claims.filter((claim) => claim.job.orderId === orderId);
  return eventually(
    async () => (of().length >= count ? of() : undefined),
    () => `order ${orderId}'s job claimed ${of().length} times (waiting for ${count})`,
    deadlineMs,
  );
}

/** The order's airline work (ticketing, refund), not the job that waits for its payment deadline. */
const AIRLINE_JOB = { kind: { in: ["ticket" as const, "refund" as const] } };

/** When the lease of `orderId`'s job ends, as the database holds it (undefined once the job is done). */
export async function leaseInDatabase(server: TestServer, orderId: string): Promise<Date | null | undefined> {
  const job = await server.db.prisma.orderJob.findFirst({ where: { orderId, ...AIRLINE_JOB }, select: { lockedUntil: true } });
  return job === null ? undefined : job.lockedUntil;
}

/** Polls until the heartbeat has renewed the lease `claim` took (the lease in the database ends later). */
export function waitForRenewal(server: TestServer, claim: SeenClaim): Promise<Date> {
  let seen: Date | null | undefined;
  return eventually(
    async () => {
      seen = await leaseInDatabase(server, claim.job.orderId);
      return seen && seen > claim.job.lease ? seen : undefined;
    },
    () => `the lease claimed until ${claim.job.lease.toISOString()} was not renewed (${String(seen?.toISOString())})`,
  );
}

/**
 * Ends the lease of `orderId`'s job now, as if the process holding it had stalled past it (a long
 * pause no heartbeat survives): any worker may claim the job again at once.
 */
export async function expireLease(server: TestServer, orderId: string): Promise<void> {
  const { count } = await server.db.prisma.orderJob.updateMany({ where: { orderId, ...AIRLINE_JOB }, data: { lockedUntil: new Date(0) } });
  expect(count, `order ${orderId} has a job`).toBe(1);
}

/** The types of the events `orderId` emitted, in order. */
export async function eventTypes(server: TestServer, orderId: string): Promise<string[]> {
  const events = await server.db.prisma.orderEvent.findMany({ where: { orderId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { type: true } });
  return events.map((event) => event.type);
}

/** The order's ledger entries as `type amount` (minor units), sorted. */
export async function ledgerOf(server: TestServer, key: string, orderId: string): Promise<string[]> {
  const entries = (await allTransactions(server, key)).filter((entry) => entry.order_id === orderId);
  return entries.map((entry) => `${entry.type} ${signedMinor(entry.amount, entry.currency)}`).sort();
}

/**
 * `order` (a Variant A read, TICKETED) was ticketed exactly once: one debit of its total, one
 * e-ticket per passenger in the database, one `order.ticketed` event, and its job gone.
 */
export async function expectTicketedOnce(server: TestServer, key: string, order: any, totalMinor: number): Promise<void> {
  expect(order.status).toBe("confirmed");
  expect(await ledgerOf(server, key, order.id)).toEqual([`ticketing_debit ${-totalMinor}`]);
  const documents = await server.db.prisma.orderDocument.findMany({ where: { orderId: order.id }, select: { passengerId: true } });
  expect(documents.map((document) => document.passengerId).sort()).toEqual(order.passengers.map((passenger: { id: string }) => passenger.id).sort());
  expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.ticketed"]);
  expect(await leaseInDatabase(server, order.id), "the job is done").toBeUndefined();
}
