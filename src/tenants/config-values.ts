/**
 * The reference lists tenant configuration is checked against. Both come from the ICU data
 * built into Node, kept current with the runtime: ISO 4217 currencies in use, IANA zones.
 */
const currencies = new Set(Intl.supportedValuesOf("currency"));

export function isIsoCurrency(code: string): boolean {
  return currencies.has(code);
}

/** The IANA zones by their canonical names, as the document lists them. */
export const TIME_ZONES: readonly string[] = [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => canonicalTimeZone(zone) !== null)])];

/** The canonical spelling of an IANA time zone (`europe/paris` → `Europe/Paris`), or null. */
export function canonicalTimeZone(zone: string): string | null {
  if (!zone.includes("/") && zone.toUpperCase() !== "UTC") return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
