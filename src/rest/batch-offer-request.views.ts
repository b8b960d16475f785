import type { z } from "zod";
import type { BatchOfferAnswer, BatchOfferRequestState } from "../search/batch-offer-requests.service";
import type { batchOfferReadSchema, batchOfferRequestSchema } from "./batch-offer-request.schemas";
import { offerViewA, supplierResultsView } from "./offer.views";

export function batchOfferRequestView({ request, remainingBatches }: BatchOfferRequestState): z.output<typeof batchOfferRequestSchema> {
  return { id: request.id, total_batches: request.totalBatches, remaining_batches: remainingBatches, created_at: request.createdAt.toISOString() };
}

export function batchOfferReadView(answer: BatchOfferAnswer): z.output<typeof batchOfferReadSchema> {
  return { ...batchOfferRequestView(answer), offers: answer.offers.map(offerViewA), supplier_results: supplierResultsView(answer.supplierResults) };
}
