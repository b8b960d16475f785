import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../../logger";
import { SearchAbandoned, SupplierTimeout } from "../contract/errors";
import type { Stage } from "./supplier-call";

/** How each call to a supplier is bounded and repeated (docs/supplier-contract.md#timeouts-and-retries). */
export interface CallPolicy {
  /** How long one attempt of a call made while a client waits (bookings, sales, changes, releases, seat maps) may take. */
  timeoutMs: number;
  /** How long one attempt of a call made by a background job (ticketing, EMDs, reissues, refunds) may take: the job's lease is renewed meanwhile. */
  jobTimeoutMs: number;
  /** Attempts after the first, when an attempt timed out or failed without an answer. */
  retries: number;
  /** The wait before the first retry; each next one doubles, with up to half of it taken off at random. */
  backoffMs: number;
}

/**
 * The call policy's stage, innermost: each attempt of a call is cut at its timeout, and a call
 * that timed out or failed without an answer (`isAnswer` says which errors are answers: the
 * supplier's refusals) is tried again after a backoff, up to `retries` times. Every call of the
 * contract that changes the supplier's state is keyed by our ids, so each is safe to repeat: a
 * retry after a timeout whose attempt did reach the supplier gets the same answer.
 *
 * A search is bounded by its own deadline instead: it is given up (SearchAbandoned) when the
 * search's signal aborts, whether or not the supplier heeds it. A read of the supplier's own
 * schedules (`read`) goes straight through.
 */
export function callPolicy(policy: CallPolicy, isAnswer: (error: unknown) => boolean, log?: Logger): Stage {
  return async (call, next) => {
    if (call.kind === "read") return next();
    if (call.kind === "search") return untilAborted(next(), call.signal);
    const timeoutMs = call.kind === "job" ? policy.jobTimeoutMs : policy.timeoutMs;
    for (let retry = 0; ; retry++) {
      try {
        return await withTimeout(next(), timeoutMs, call.name);
      } catch (error) {
        if (isAnswer(error) || retry >= policy.retries) throw error;
        const waitMs = backoff(policy.backoffMs, retry);
        log?.warn({ err: error, supplier: call.supplier, call: call.name, retry: retry + 1, waitMs }, "supplier call failed without an answer; trying it again");
        await sleep(waitMs);
      }
    }
  };
}

/** The wait before retry `retry` (0-based): `baseMs` doubled each time, up to half of it taken off at random so that callers spread out. */
export function backoff(baseMs: number, retry: number): number {
  const full = baseMs * 2 ** retry;
  return Math.round(full - Math.random() * (full / 2));
}

/** `answer`, or SupplierTimeout after `timeoutMs`; the timer is cleared either way, so none is left behind. */
async function withTimeout<T>(answer: Promise<T>, timeoutMs: number, call: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SupplierTimeout(call, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
    // An attempt that lost the race may still fail later: that failure is not this call's.
    answer.catch(() => undefined);
  }
}

/** `answer`, or SearchAbandoned once `signal` aborts (the search's deadline), whichever is first. */
async function untilAborted<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  let abandoned: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    abandoned = () => reject(new SearchAbandoned("the search's deadline passed"));
    if (signal.aborted) abandoned();
    else signal.addEventListener("abort", abandoned, { once: true });
  });
  try {
    return await Promise.race([answer, aborted]);
  } finally {
    signal.removeEventListener("abort", abandoned!);
    answer.catch(() => undefined);
    aborted.catch(() => undefined);
  }
}
