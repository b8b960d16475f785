import type { z } from "zod";
import { availableActions, type AirlineInitiatedChange } from "../orders/core/airline-change";
import type { airlineChangeSchema } from "./airline-change.schemas";
import { slicesViewA } from "./offer.views";

export function airlineChangeView(change: AirlineInitiatedChange): z.output<typeof airlineChangeSchema> {
  return {
    id: change.id,
    order_id: change.orderId,
    removed: slicesViewA(change.removed),
    added: slicesViewA(change.added),
    action_taken: change.actionTaken,
    action_taken_at: change.actionTaken === null ? null : change.updatedAt.toISOString(),
    available_actions: availableActions(change),
    created_at: change.createdAt.toISOString(),
    updated_at: change.updatedAt.toISOString(),
  };
}
