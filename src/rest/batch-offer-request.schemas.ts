import { z } from "zod";
import { timestamp } from "./envelope";
import { offerASchema, supplierResultSchema } from "./offer.schemas";

const batchFields = {
  id: z.string().meta({ description: "`boq_…`" }),
  total_batches: z.int().meta({ description: "One batch per supplier the tenant searches" }),
  remaining_batches: z.int().meta({ description: "Batches no read has answered yet; 0: no more offers are coming" }),
  created_at: timestamp,
};

/** The batch offer request as made (POST). */
export const batchOfferRequestSchema = z.object(batchFields).meta({ id: "BatchOfferRequest" });

/** A read of it (GET): the batches that arrived since the last read. */
export const batchOfferReadSchema = z
  .object({
    ...batchFields,
    offers: z.array(offerASchema).meta({ description: "The offers of the batches that arrived since the last read (empty once remaining_batches was 0)" }),
    supplier_results: z.array(supplierResultSchema).meta({ description: "Every batch answered so far, this read's included, in the order they arrived" }),
  })
  .meta({ id: "BatchOfferRequestRead" });
