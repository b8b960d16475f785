import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { useQuery } from "urql";
import { Field } from "../ui/Field";
import { LocationsQuery } from "./queries";

interface AirportFieldProps {
  label: string;
  name: string;
  /** The IATA code chosen, or "" */
  value: string;
  onChange(code: string): void;
  error?: string | undefined;
}

const TYPING_PAUSE_MS = 200;

/**
 * An airport picked by code, name or city, suggestions from the API's `locations` (the ARIA
 * combobox pattern: arrow keys move through the list, Enter picks, Escape closes). Typing a
 * three-letter code and leaving the field keeps that code as it is.
 */
export function AirportField({ label, name, value, onChange, error }: AirportFieldProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => {
    const pause = setTimeout(() => setQuery(text.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(pause);
  }, [text]);
  const [{ data }] = useQuery({ query: LocationsQuery, variables: { query }, pause: query.length < 2 || !open, requestPolicy: "cache-first" });
  const options = open && query.length >= 2 ? (data?.locations ?? []) : [];
  const choose = (index: number) => {
    const location = options[index];
    if (!location) return;
    onChange(location.iataCode);
    setText(`${location.name} (${location.iataCode})`);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      setActive((current) => Math.min(current + 1, Math.max(options.length - 1, 0)));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((current) => Math.max(current - 1, 0));
    } else if (event.key === "Enter" && open && options.length > 0) {
      event.preventDefault();
      choose(active);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };
  const listId = `${id}-list`;
  const suggestions = (
    <ul id={listId} role="listbox" aria-label={`${label} suggestions`} hidden={options.length === 0}>
      {options.map((location, index) => (
        <li
          key={location.id}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === active}
          // mousedown, not click: the input's blur would close the list first.
          onMouseDown={(event) => {
            event.preventDefault();
            choose(index);
          }}
        >
          <strong>{location.iataCode}</strong> {location.name}, {location.cityName} ({location.iataCountryCode})
        </li>
      ))}
    </ul>
  );
  return (
    <Field label={label} error={error} className="combobox" after={suggestions}>
      <input
        name={name}
        role="combobox"
        autoComplete="off"
        required
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={options.length > 0 ? `${listId}-${active}` : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
          // A typed code counts as chosen until a suggestion replaces it.
          onChange(/^[A-Za-z]{3}$/.test(event.target.value.trim()) ? event.target.value.trim().toUpperCase() : "");
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
    </Field>
  );
}
