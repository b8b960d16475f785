import { createInterface } from "node:readline";

/**
 * TEST ONLY. Points in the code where a test may stop the process on purpose, to kill it inside a
 * crash window (AEROGATE_TEST_PAUSE_AT, off by default; see src/config.ts and docs/testing.md#pause-points):
 * - `after_supplier_hold`: a booking is made at its supplier (its seats held), its order not yet committed;
 * - `after_cancel_commit`: a cancellation is committed, its seats not yet given back;
 * - `after_refund_commit`: a refund (a confirmed cancellation quote, or the refund action) is
 *   committed with its job, the job not yet woken;
 * - `after_supplier_seat_sale`: the airline sold the seats of a services addition, the addition not yet committed;
 * - `after_supplier_service_sale`: the supplier sold and was paid the services of an addition, the addition not yet committed;
 * - `after_services_commit`: services added to an order are committed (paid, with their EMD job), the job not yet woken;
 * - `after_airline_ticketing`: the airline answered a `ticket` job (tickets, or a rejection that gave the seats back), the outcome not yet committed;
 * - `after_airline_refund`: the airline refunded a `refund` job's booking (its seats back on sale), the refund not yet committed;
 * - `after_emd_issue`: the airline issued the EMDs an `emd` job asked for, the documents not yet committed;
 * - `after_airline_reissue`: the airline reissued a `reissue` job's e-tickets, the new numbers not yet committed;
 * - `before_change_commit`: an order change's confirmation is checked, the airline holds the new flights' seats, the change is about to commit;
 * - `after_change_commit`: it is committed (order, money, reissue job), the airline not yet told to release the old flights, the job not yet woken;
 * - `before_airline_change_commit`: an airline-initiated change's acceptance is checked, the airline holds the new flights' seats, the acceptance is about to commit;
 * - `after_airline_change_commit`: it is committed (order, a seat's credit), the airline not yet told to release the old flights, not yet answered.
 */
export const PAUSE_POINTS = ["after_supplier_hold", "after_cancel_commit", "after_refund_commit", "after_supplier_seat_sale", "after_supplier_service_sale", "after_services_commit", "after_airline_ticketing", "after_airline_refund", "after_emd_issue", "after_airline_reissue", "before_change_commit", "after_change_commit", "before_airline_change_commit", "after_airline_change_commit"] as const;
export type PausePoint = (typeof PAUSE_POINTS)[number];

/** Resolves at once, or, at the configured point, once the test lets the request go on. */
export type TestPause = (point: PausePoint, detail: Record<string, string>) => Promise<void>;

/** What production runs: nothing. */
export const noPause: TestPause = () => Promise.resolve();

/** The line printed on stdout when a request stops at `point`, e.g. `AEROGATE_TEST_PAUSED after_supplier_hold {"orderId":"ord_…"}`. */
export const PAUSED_MARKER = "AEROGATE_TEST_PAUSED";

/**
 * The pause for `point` (none when it is undefined): each request reaching it prints one marker
 * line on stdout and waits until a line `resume` arrives on stdin (then every waiting request
 * goes on), or for ever: a test usually SIGKILLs the process there.
 */
export function testPause(point: PausePoint | undefined): TestPause {
  if (point === undefined) return noPause;
  let waiting: Array<() => void> = [];
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line.trim() !== "resume") return;
    const resumed = waiting;
    waiting = [];
    for (const resume of resumed) resume();
  });
  return (at, detail) => {
    if (at !== point) return Promise.resolve();
    return new Promise<void>((resolve) => {
      waiting.push(resolve);
      process.stdout.write(`${PAUSED_MARKER} ${at} ${JSON.stringify(detail)}\n`);
    });
  };
}
