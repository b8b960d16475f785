import type { ItinerarySliceFragment } from "../generated/graphql";
import { duration, words } from "../ui/format";

/** Local times as the airline states them: "2026-12-01T09:15:00" → "1 Dec 09:15". */
function localTime(value: string): string {
  const [date, time = ""] = value.split("T");
  const [, month, day] = (date ?? "").split("-");
  const monthName = new Date(Date.UTC(2000, Number(month) - 1, 1)).toLocaleString(undefined, { month: "short", timeZone: "UTC" });
  return `${Number(day)} ${monthName} ${time.slice(0, 5)}`;
}

/** An itinerary: each slice with its flights, times local to each airport. */
export function Itinerary({ slices }: { slices: readonly ItinerarySliceFragment[] }) {
  return (
    <div>
      {slices.map((slice) => (
        <div className="slice" key={slice.id}>
          <div className="slice-head">
            <span>
              {slice.origin.cityName} ({slice.origin.iataCode}) → {slice.destination.cityName} ({slice.destination.iataCode})
            </span>
            <span>
              {slice.departureDate} · {duration(slice.duration)} · {slice.segments.length === 1 ? "direct" : `${slice.segments.length - 1} stop${slice.segments.length > 2 ? "s" : ""}`} · {slice.fareBrandName}
            </span>
          </div>
          {slice.segments.map((segment) => (
            <div className="segment" key={segment.id}>
              <div>
                <strong>{localTime(segment.departingAt)}</strong> {segment.origin.iataCode}
                <div className="hint">{segment.origin.name}</div>
              </div>
              <div className="mid">
                {segment.marketingCarrier.iataCode}
                {segment.marketingCarrierFlightNumber} · {duration(segment.duration)}
                <br />
                {segment.aircraft.name} · {words(segment.cabinClass)}
              </div>
              <div className="end">
                <strong>{localTime(segment.arrivingAt)}</strong> {segment.destination.iataCode}
                <div className="hint">{segment.destination.name}</div>
              </div>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
