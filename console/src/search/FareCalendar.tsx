import { useQuery } from "urql";
import type { CabinClass } from "../generated/graphql";
import { ErrorNote } from "../ui/ErrorNote";
import { money } from "../ui/format";
import { FareCalendarQuery } from "./queries";

/** Days shown before and after the chosen one. */
const DAYS_AROUND = 7;
const DAY_MS = 86_400_000;

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const weekdayAndDay = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

interface FareCalendarProps {
  origin: string;
  destination: string;
  /** The chosen departure date: the calendar shows the days around it. */
  depart: string;
  /** The chosen return date, if a round trip: each day's return keeps the same stay. */
  returnDate: string;
  cabinClass: CabinClass;
  adults: number;
  /** Searches the day picked (and its return). */
  onPick(depart: string, returnDate: string): void;
}

/**
 * The lowest price of each day around the chosen one for the route (indicative: picking a day
 * searches it for the bookable offers). The cheapest day is marked.
 */
export function FareCalendar({ origin, destination, depart, returnDate, cabinClass, adults, onPick }: FareCalendarProps) {
  const stayDays = returnDate ? Math.round((Date.parse(returnDate) - Date.parse(depart)) / DAY_MS) : null;
  // Not before tomorrow (UTC): "today" at an origin east of here may already be tomorrow.
  const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const earliest = addDays(depart, -DAYS_AROUND);
  const from = depart < tomorrow ? depart : earliest < tomorrow ? tomorrow : earliest;
  const [{ data, error, fetching }] = useQuery({
    query: FareCalendarQuery,
    variables: { origin, destination, from, to: addDays(depart, DAYS_AROUND), cabinClass, adults, stayDays },
  });
  const days = data?.fareCalendar ?? [];
  const cheapest = Math.min(...days.map((day) => Number(day.lowestTotalAmount)));
  return (
    <section className="card" aria-labelledby="fare-calendar-heading">
      <h2 id="fare-calendar-heading">Prices around {weekdayAndDay.format(new Date(`${depart}T00:00:00Z`))}</h2>
      <p className="hint">The lowest price of each day{stayDays === null ? "" : ` with a ${stayDays}-day stay`}, for every passenger. Pick a day to search it.</p>
      <ErrorNote error={error} />
      {fetching && !data ? <p>Loading prices…</p> : null}
      {data && days.length === 0 ? <p>No flights with seats on these days.</p> : null}
      <ul className="fare-calendar" aria-label="Lowest price by day">
        {days.map((day) => {
          const chosen = day.departureDate === depart;
          const best = Number(day.lowestTotalAmount) === cheapest;
          return (
            <li key={day.departureDate}>
              <button
                type="button"
                aria-pressed={chosen}
                className={[chosen ? "chosen" : null, best ? "cheapest" : null].filter(Boolean).join(" ") || undefined}
                onClick={() => onPick(day.departureDate, day.returnDate ?? "")}
              >
                <span className="day">{weekdayAndDay.format(new Date(`${day.departureDate}T00:00:00Z`))}</span>
                <span className="price">{money(day.lowestTotalAmount, day.totalCurrency)}</span>
                {best ? <span className="hint">Cheapest</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
