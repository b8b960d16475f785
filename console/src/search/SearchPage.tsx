import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { fieldErrors } from "../api/errors";
import type { CabinClass, PassengerType } from "../generated/graphql";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { PageHeading } from "../ui/PageHeading";
import { useUrlFilters } from "../ui/paging";
import { AirportField } from "./AirportField";
import { FareCalendar } from "./FareCalendar";
import { OfferCard } from "./OfferCard";
import { OffersQuery, SearchFlightsMutation } from "./queries";
import { SupplierResults, type SupplierResultRow } from "./SupplierResults";

const SEARCH_FIELDS = ["from", "to", "depart", "return", "adults", "children", "infants", "cabin", "request"] as const;
const CABINS: ReadonlyArray<[CabinClass, string]> = [
  ["ECONOMY", "Economy"],
  ["PREMIUM_ECONOMY", "Premium economy"],
  ["BUSINESS", "Business"],
  ["FIRST", "First"],
];

/** Where each API field of the search lands in the form. */
const FORM_FIELD: Record<string, string> = {
  "slices[0].origin": "from",
  "slices[0].destination": "to",
  "slices[0].departureDate": "depart",
  "slices[1].departureDate": "return",
  passengers: "adults",
};

/** The search form's values, as the URL keeps them. */
interface Draft {
  from: string;
  to: string;
  depart: string;
  return: string;
  adults: string;
  children: string;
  infants: string;
  cabin: string;
}

/**
 * How each supplier did, by the search's id, for the searches run in this tab: the search's own
 * answer says it, and coming back from booking shows it again (a search read later by its id has
 * its offers, not its supplier results).
 */
const supplierResultsOf = new Map<string, readonly SupplierResultRow[]>();

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Search and compare: the search's own values and its id are in the URL, so coming back from
 * booking shows the same offers again (read with `offers`, not searched again).
 */
export function SearchPage() {
  const { values, apply } = useUrlFilters(SEARCH_FIELDS);
  const [draft, setDraft] = useState<Draft>({
    from: values.from,
    to: values.to,
    depart: values.depart || inDays(30),
    return: values.return,
    adults: values.adults || "1",
    children: values.children || "0",
    infants: values.infants || "0",
    cabin: values.cabin || "ECONOMY",
  });
  const [search, searchFlights] = useMutation(SearchFlightsMutation);
  const [offers] = useQuery({ query: OffersQuery, variables: { offerRequestId: values.request }, pause: !values.request });
  const errors = new Map([...fieldErrors(search.error)].map(([field, message]) => [FORM_FIELD[field] ?? field, message]));
  const set = (name: keyof typeof draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const runSearch = async (draft: Draft) => {
    const passengers: Array<{ type: PassengerType }> = [
      ...Array.from({ length: Number(draft.adults) }, () => ({ type: "ADULT" as const })),
      ...Array.from({ length: Number(draft.children) }, () => ({ type: "CHILD" as const })),
      ...Array.from({ length: Number(draft.infants) }, () => ({ type: "INFANT_WITHOUT_SEAT" as const })),
    ];
    const slices = [
      { origin: draft.from, destination: draft.to, departureDate: draft.depart },
      ...(draft.return ? [{ origin: draft.to, destination: draft.from, departureDate: draft.return }] : []),
    ];
    const result = await searchFlights({ input: { slices, passengers, cabinClass: draft.cabin as CabinClass } });
    if (result.data) {
      supplierResultsOf.set(result.data.searchFlights.offerRequestId, result.data.searchFlights.supplierResults);
      apply({ ...draft, request: result.data.searchFlights.offerRequestId });
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void runSearch(draft);
  };
  // A day picked on the calendar is searched at once, the rest of the search as it was.
  const searchDay = (depart: string, returnDate: string) => {
    const picked = { ...searched, depart, return: returnDate };
    setDraft(picked);
    void runSearch(picked);
  };
  // The search the offers shown are of, as the URL keeps it.
  const searched: Draft = { from: values.from, to: values.to, depart: values.depart, return: values.return, adults: values.adults || "1", children: values.children || "0", infants: values.infants || "0", cabin: values.cabin || "ECONOMY" };
  const found = offers.data?.offers;
  const sorted = [...(found?.nodes ?? [])].sort((a, b) => Number(a.totalAmount) - Number(b.totalAmount));
  const supplierResults = values.request ? supplierResultsOf.get(values.request) : undefined;
  return (
    <>
      <PageHeading title="Search and book" />
      <form className="card grid-form" onSubmit={submit} aria-label="Flight search">
        <AirportField label="From" name="from" value={draft.from} onChange={(code) => setDraft((current) => ({ ...current, from: code }))} error={errors.get("from")} />
        <AirportField label="To" name="to" value={draft.to} onChange={(code) => setDraft((current) => ({ ...current, to: code }))} error={errors.get("to")} />
        <Field label="Depart" error={errors.get("depart")}>
          <input name="depart" type="date" required value={draft.depart} onChange={set("depart")} />
        </Field>
        <Field label="Return" hint="Leave empty for one way." error={errors.get("return")}>
          <input name="return" type="date" value={draft.return} min={draft.depart} onChange={set("return")} />
        </Field>
        <Field label="Adults" error={errors.get("adults")}>
          <input name="adults" type="number" min={1} max={9} required value={draft.adults} onChange={set("adults")} />
        </Field>
        <Field label="Children (2–11)">
          <input name="children" type="number" min={0} max={8} value={draft.children} onChange={set("children")} />
        </Field>
        <Field label="Infants on a lap">
          <input name="infants" type="number" min={0} max={Number(draft.adults)} value={draft.infants} onChange={set("infants")} />
        </Field>
        <Field label="Cabin">
          <select name="cabin" value={draft.cabin} onChange={set("cabin")}>
            {CABINS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <ErrorNote error={search.error} fields={(field) => FORM_FIELD[field] !== undefined} />
        <div className="actions">
          <button type="submit" className="primary" disabled={search.fetching || !draft.from || !draft.to}>
            {search.fetching ? "Searching…" : "Search flights"}
          </button>
          {!draft.from || !draft.to ? <span className="hint">Pick both airports from the suggestions, or type their codes.</span> : null}
        </div>
      </form>
      <ErrorNote error={offers.error} />
      {values.request && searched.from && searched.to && searched.depart ? (
        <FareCalendar
          origin={searched.from}
          destination={searched.to}
          depart={searched.depart}
          returnDate={searched.return}
          cabinClass={searched.cabin as CabinClass}
          adults={Number(searched.adults)}
          onPick={searchDay}
        />
      ) : null}
      {values.request ? (
        <div className="search-results">
          <section aria-labelledby="offers-heading">
            <h2 id="offers-heading" aria-live="polite">
              {found ? `${found.totalCount} offer${found.totalCount === 1 ? "" : "s"}, cheapest first` : "Loading offers…"}
            </h2>
            <div className="offers">
              {sorted.map((offer) => (
                <OfferCard key={offer.id} offer={offer} />
              ))}
            </div>
          </section>
          {supplierResults ? <SupplierResults results={supplierResults} /> : null}
        </div>
      ) : null}
    </>
  );
}
