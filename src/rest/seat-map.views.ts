import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { SeatMap, SeatMapElement } from "../gateway/contract/seat-maps";
import type { seatMapSchema } from "./seat-map.schemas";

type SeatMapView = z.infer<typeof seatMapSchema>;

function elementView(element: SeatMapElement) {
  if (element.type !== "seat") return element;
  return {
    type: element.type,
    designator: element.designator,
    name: element.name,
    disclosures: [...element.disclosures],
    available_services: element.availableServices.map((service) => ({
      id: service.id,
      passenger_id: service.passengerId,
      total_amount: formatMinor(service.totalAmount, service.currency),
      total_currency: service.currency,
    })),
  };
}

/** A seat map in Variant A's names. */
export function seatMapView(map: SeatMap): SeatMapView {
  return {
    id: map.id,
    segment_id: map.segmentId,
    slice_id: map.sliceId,
    cabins: map.cabins.map((cabin) => ({
      cabin_class: cabin.cabinClass,
      deck: cabin.deck,
      aisles: cabin.aisles,
      wings: cabin.wings && { first_row_index: cabin.wings.firstRowIndex, last_row_index: cabin.wings.lastRowIndex },
      rows: cabin.rows.map((row) => ({ sections: row.sections.map((section) => ({ elements: section.elements.map(elementView) })) })),
    })),
  };
}
