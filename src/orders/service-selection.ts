import { appError } from "../errors/app-error";
import { availableServices } from "../search/available-services";
import type { StoredOffer } from "../search/offer-payload";
import type { SelectedService } from "./order";

/**
 * The services a client asked to book with the offer, checked and priced: each must be one of
 * the offer's available services (GET /v1/air/offers/:id?return_available_services=true), at
 * most once, within its maximum quantity. 400 `validation_failed` naming the field otherwise.
 */
export function selectServices(selections: ReadonlyArray<{ id: string; quantity: number }>, offer: StoredOffer): { services: SelectedService[]; amount: number } {
  if (selections.length === 0) return { services: [], amount: 0 };
  const offered = new Map(availableServices(offer).map((service) => [service.id, service]));
  const seen = new Set<string>();
  const services = selections.map((selection, index): SelectedService => {
    const fail = (field: string, message: string) => appError("validation_failed", { field: `services[${index}].${field}`, message: `services[${index}].${field}: ${message}` });
    const service = offered.get(selection.id);
    if (!service) throw fail("id", `${selection.id} is not a service of this offer`);
    if (seen.has(selection.id)) throw fail("id", `${selection.id} is given twice`);
    seen.add(selection.id);
    if (selection.quantity > service.maximumQuantity) throw fail("quantity", `at most ${service.maximumQuantity}`);
    return { id: service.id, type: service.type, quantity: selection.quantity, unitAmount: service.totalAmount, passengerIds: service.passengerIds, segmentIds: service.segmentIds };
  });
  return { services, amount: services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0) };
}
