/**
 * Text from the API that a person reads to know what it names (a tenant's name, a key's label),
 * with each character that would hide or turn it shown as its name: "Acme⟨U+202E⟩elbat". The
 * server's own rule, so the console shows exactly what the API refuses in new names.
 */
export { withHiddenCharactersShown as shown } from "../../../src/validation/hidden-characters";

/** Amounts arrive as decimal strings with their currency; they are shown as they came, never rounded. */
export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** An instant in the person's own time zone and locale. */
export function when(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : "—";
}

/** PT7H25M → 7h 25m */
export function duration(iso: string): string {
  const match = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?/.exec(iso);
  if (!match) return iso;
  const [, days, hours, minutes] = match;
  return [days && `${days}d`, hours && `${hours}h`, minutes && `${minutes}m`].filter(Boolean).join(" ") || iso;
}

/** An enum value as words: PREMIUM_ECONOMY → premium economy. */
export function words(value: string): string {
  return value.toLowerCase().replace(/_/g, " ");
}
