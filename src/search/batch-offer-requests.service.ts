import { clock } from "../clock";
import type { Database } from "../db/database";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import type { Logger } from "../logger";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { ArrivalWatch, BatchArrivals } from "./batch-arrivals";
import { findBatchRequest, insertBatchRequest, readBatches, recordArrival, settleOverdue, takeArrived, type BatchOfferRequestRow, type OfferBatchRow } from "./batch-offer-rows";
import type { SupplierResult, SupplierStatus } from "../gateway/contract/gateway";
import type { StoredOffer } from "./offer-payload";
import { offerIdOf } from "./offer-ids";
import type { OfferLifetimes, OfferService } from "./offer.service";
import type { SearchRequest } from "./search.inputs";
import type { SearchBatch, SearchService } from "./search.service";

/**
 * How long past the deadline a read waits for the process running the search to write the
 * batches still out (as `timeout`) before it gives them up itself: that process died.
 */
const OVERDUE_GRACE_MS = 1000;
/** A waiting read looks at the database this often too, in case the word of an arrival was lost. */
const LOOK_AGAIN_MS = 500;

/** A batch offer request as made, and as each read finds it. */
export interface BatchOfferRequestState {
  request: BatchOfferRequestRow;
  /** Batches no read has answered yet. */
  remainingBatches: number;
}

/** What a read answers: the batches that arrived since the last read (their offers), and every batch answered so far. */
export interface BatchOfferAnswer extends BatchOfferRequestState {
  offers: StoredOffer[];
  /** Every batch answered so far, this read's included, in the order they arrived. */
  supplierResults: SupplierResult[];
}

/**
 * Batch offer requests (docs/gateway.md#batch-offer-requests): the streamed search
 * (SearchService.streamed, the fan-out every search uses) run in the background of the process
 * that was asked, each supplier's batch stored as it arrives, and read back by long-polled reads
 * in any process. The batches live in the database (`BatchOfferRequest`, `OfferBatch`): a read
 * takes the batches that arrived since the last one, or waits for the next (told by
 * BatchArrivals) until the deadline.
 */
export class BatchOfferRequestService {
  readonly #running = new Set<Promise<void>>();
  readonly #stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly search: SearchService,
    private readonly offers: OfferService,
    private readonly arrivals: BatchArrivals,
    private readonly lifetimes: OfferLifetimes,
    private readonly log: Logger,
  ) {}

  /**
   * Starts the search and answers at once with the request (a batch per supplier the tenant
   * searches, none answered yet). A search the rules refuse is refused here, as `search` refuses it.
   */
  async create(scope: TenantScope, request: SearchRequest): Promise<BatchOfferRequestState> {
    const { suppliers, batches } = await this.search.streamed(scope, request, this.#stopping.signal);
    // Dated on the tenant's clock, as its offers are; the deadline is the search's timers', on the process clock.
    const now = scope.clock.now();
    const row: BatchOfferRequestRow = {
      id: newId("boq", now.getTime()),
      tenantId: scope.tenantId,
      totalBatches: suppliers.length,
      deadlineAt: new Date(clock.nowMs() + request.supplierTimeoutMs),
      expiresAt: new Date(now.getTime() + this.lifetimes.ttlMs),
      createdAt: now,
    };
    if (!(await insertBatchRequest(this.db, row, suppliers))) {
      await batches.return(undefined);
      throw appError("tenant_not_found");
    }
    const run = this.#run(row.id, batches).finally(() => this.#running.delete(run));
    this.#running.add(run);
    return { request: row, remainingBatches: row.totalBatches };
  }

  /**
   * The batches that arrived since the last read, taken for this one; when none has, waits for
   * the next until the deadline. Once every batch was answered, an empty answer at once. 404
   * `not_found` for an unknown id, another tenant's, or one no longer kept.
   */
  async next(scope: TenantScope, id: string): Promise<BatchOfferAnswer> {
    const request = await findBatchRequest(this.db, scope.tenantId, id);
    if (!request || request.expiresAt.getTime() + this.lifetimes.retentionMs <= scope.clock.nowMs()) throw appError("not_found", { field: "id" });
    const watch = this.arrivals.watch(id);
    try {
      return await this.#nextBatches(scope, request, watch);
    } finally {
      watch.close();
    }
  }

  /**
   * Ends the searches still running here (their suppliers still out are `timeout`) once their
   * batches are written, and has the reads waiting here answer with what has arrived, so that
   * shutting down waits for no deadline.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.arrivals.wakeAll();
    await Promise.all(this.#running);
  }

  async #nextBatches(scope: TenantScope, request: BatchOfferRequestRow, watch: ArrivalWatch): Promise<BatchOfferAnswer> {
    const givenUpAt = request.deadlineAt.getTime() + OVERDUE_GRACE_MS;
    for (;;) {
      const taken = await takeArrived(this.db, request.id, clock.now());
      const batches = await readBatches(this.db, request.id);
      if (taken.size > 0 || batches.every((batch) => batch.answeredAt !== null) || this.#stopping.signal.aborted) return this.#answer(scope, request, batches, taken);
      const now = clock.nowMs();
      if (now >= givenUpAt) await settleOverdue(this.db, request.id, new Date(now), scope.clock.toProcess(request.createdAt));
      else await watch.next(Math.min(givenUpAt - now, LOOK_AGAIN_MS));
    }
  }

  async #answer(scope: TenantScope, request: BatchOfferRequestRow, batches: OfferBatchRow[], taken: ReadonlySet<string>): Promise<BatchOfferAnswer> {
    const answered = batches.filter((batch) => batch.answeredAt !== null);
    const offerIds = batches
      .filter((batch) => taken.has(batch.supplier) && batch.offerRequestId !== null)
      .flatMap((batch) => Array.from({ length: batch.offerCount }, (_, index) => offerIdOf(batch.offerRequestId!, index)));
    const offers = (await this.offers.getMany(scope, offerIds)).filter((offer): offer is StoredOffer => offer !== null);
    return {
      request,
      remainingBatches: batches.length - answered.length,
      offers,
      supplierResults: answered.map((batch) => ({ supplier: batch.supplier, status: batch.status as SupplierStatus, offerCount: batch.offerCount, durationMs: batch.durationMs })),
    };
  }

  /** Writes each batch as it arrives and tells every process; a failure is logged, and the batch is given up by the reads past the deadline. */
  async #run(id: string, batches: AsyncGenerator<SearchBatch>): Promise<void> {
    try {
      for await (const batch of batches) {
        try {
          await recordArrival(this.db, id, batch.result, batch.offers[0]?.offerRequestId ?? null, clock.now());
          await this.arrivals.announce(id);
        } catch (error) {
          this.log.error({ err: error, batchOfferRequestId: id, supplier: batch.result.supplier }, "a batch offer request's batch could not be written; reads give it up after the deadline");
        }
      }
    } catch (error) {
      this.log.error({ err: error, batchOfferRequestId: id }, "a batch offer request's search failed; reads give up its batches after the deadline");
    }
  }
}
