import type { ConsoleSeatMapsQuery } from "../generated/graphql";
import { money } from "../ui/format";

export type SeatMapData = NonNullable<ConsoleSeatMapsQuery["seatMaps"]>[number];

/** A seat chosen for one passenger on one segment: the seat service to book. */
export interface ChosenSeat {
  serviceId: string;
  designator: string;
  amount: string;
  currency: string;
}

interface SeatMapProps {
  map: SeatMapData;
  /** e.g. "LHR → JFK BA117" */
  title: string;
  /** The passenger choosing now. */
  passengerId: string;
  /** Seats chosen on this segment, by passenger id. */
  chosen: ReadonlyMap<string, ChosenSeat>;
  /** A passenger's name by id, to say whose a chosen seat is. */
  nameOf(passengerId: string): string;
  onChoose(seat: ChosenSeat | null): void;
}

const FACILITY: Record<string, string> = { LAVATORY: "WC", GALLEY: "Galley", CLOSET: "Closet", STAIRS: "Stairs", BASSINET: "Cot", EXIT_ROW: "Exit" };

/**
 * One segment's cabin, front to back, as buttons: a seat for sale to the passenger choosing is a
 * button that says its price; taken seats and seats of another cabin are disabled. Only the
 * cabins with a seat for sale are drawn.
 */
export function SeatMap({ map, title, passengerId, chosen, nameOf, onChoose }: SeatMapProps) {
  const forSale = map.cabins.filter((cabin) => cabin.rows.some((row) => row.sections.some((section) => section.elements.some((element) => (element.availableServices?.length ?? 0) > 0))));
  const cabins = forSale.length > 0 ? forSale : map.cabins;
  const holderOf = (designator: string) => [...chosen].find(([, seat]) => seat.designator === designator)?.[0];
  return (
    <figure className="seatmap" aria-label={`Seat map, ${title}`}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      {cabins.map((cabin, cabinIndex) => (
        <div key={cabinIndex} className="seat-rows" role="group" aria-label={`${cabin.cabinClass.toLowerCase().replace("_", " ")} cabin${cabin.deck === 1 ? ", upper deck" : ""}`}>
          {cabin.rows.map((row, rowIndex) => {
            const rowNumber = row.sections.flatMap((section) => section.elements).find((element) => element.designator)?.designator?.replace(/\D+$/, "");
            return (
              <div className="seat-row" key={rowIndex}>
                <span className="row-number" aria-hidden="true">
                  {rowNumber ?? ""}
                </span>
                {row.sections.map((section, sectionIndex) => (
                  <div className="seat-section" key={sectionIndex}>
                    {section.elements.map((element, elementIndex) => {
                      if (element.type !== "SEAT" || !element.designator) {
                        return (
                          <span className="facility" key={elementIndex} aria-hidden="true">
                            {FACILITY[element.type] ?? ""}
                          </span>
                        );
                      }
                      const designator = element.designator;
                      const service = element.availableServices?.find((candidate) => candidate.passengerId === passengerId);
                      const holder = holderOf(designator);
                      const mine = holder === passengerId;
                      const free = service ? Number(service.totalAmount) === 0 : false;
                      const label = holder
                        ? `Seat ${designator}, chosen for ${nameOf(holder)}`
                        : service
                          ? `Seat ${designator}, ${free ? "free" : money(service.totalAmount, service.totalCurrency)}${element.disclosures?.length ? `, ${element.disclosures.join("; ")}` : ""}`
                          : `Seat ${designator}, not available`;
                      return (
                        <button
                          type="button"
                          key={elementIndex}
                          className={`seat ${service ? (free ? "free" : "paid") : ""}`}
                          aria-pressed={mine}
                          aria-label={label}
                          title={label}
                          disabled={!service || (holder !== undefined && !mine)}
                          onClick={() => onChoose(mine || !service ? null : { serviceId: service.id, designator, amount: service.totalAmount, currency: service.totalCurrency })}
                        >
                          {holder && !mine ? nameOf(holder).slice(0, 1) : designator}
                        </button>
                      );
                    })}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      ))}
    </figure>
  );
}
