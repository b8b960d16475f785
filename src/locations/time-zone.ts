const WHITESPACE = /\s+/g;
const validity = new Map<string, boolean>();

/** Whether `Intl.DateTimeFormat`, and so every local-time computation we do, accepts this zone. */
export function isValidTimeZone(zone: string): boolean {
  let valid = validity.get(zone);
  if (valid === undefined) {
    valid = zone.length > 0 && acceptedByIntl(zone);
    validity.set(zone, valid);
  }
  return valid;
}

/**
 * The first candidate that is a valid IANA zone once stray whitespace is removed (the data
 * has entries such as "Asia/ Bangkok"), or undefined when none is.
 */
export function firstValidTimeZone(candidates: ReadonlyArray<string | undefined>): string | undefined {
  for (const candidate of candidates) {
    const zone = candidate?.replace(WHITESPACE, "");
    if (zone !== undefined && isValidTimeZone(zone)) return zone;
  }
  return undefined;
}

function acceptedByIntl(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
