/**
 * graphql-js words a variable that does not fit its type as `Variable "$input" got invalid value
 * { …the whole value… } at "input.field"; <why>`, and the why of a scalar often repeats the value
 * too. A variable may carry a secret (a supplier's access token), and an error message ends up in
 * logs and consoles, so these messages are rewritten to name the variable, the place and the
 * expected type only: `Variable "$input" got an invalid value at "input.field"; Expected type "String".`
 */

const INVALID_VARIABLE = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)" got invalid value /;

/** Why a value did not fit, in graphql-js's words that hold no part of the value (names come from the schema or are keys). */
const VALUE_FREE_REASONS = [
  /^Expected type "[^"]+" to be an object\.$/,
  /^Field "[^"]+" of required type "[^"]+" was not provided\.$/,
  /^Field "[^"]+" is not defined by type "[^"]+"\.( Did you mean [^?]*\?)?$/,
  /^Exactly one key must be specified for OneOf type "[^"]+"\.$/,
  /^Field "[^"]+" must be non-null\.$/,
  /^Expected non-nullable type "[^"]+" not to be null\.$/,
  /^Expected type "[^"]+"\.$/,
];

/** A scalar's or enum's refusal, which may quote the value: only the type it expected is kept. */
const EXPECTED_TYPE = [/^Expected type "([^"]+)"\./, /^(String|Int|Float|Boolean|ID) cannot represent/, /^Enum "([^"]+)" cannot represent/, /^Value .* does not exist in "([^"]+)" enum\./s];

/**
 * A variable coercion error without the variable's value: its message, and the field it names as
 * the REST layer names fields (`input.slices[0].departureDate`, or the variable itself); null for
 * any other message. `reason` is graphql-js's own why (the original error's message), which ends
 * the message.
 */
export function withoutVariableValue(message: string, reason: string | undefined): { message: string; field: string } | null {
  const variable = INVALID_VARIABLE.exec(message)?.[1];
  if (variable === undefined) return null;
  const prefix = reason !== undefined && message.endsWith(`; ${reason}`) ? message.slice(0, -(reason.length + 2)) : null;
  // The place is the end of the prefix: the names of a path come from the schema, not the value.
  const place = prefix?.match(new RegExp(` at "(${variable}(?:\\.[_A-Za-z][_0-9A-Za-z]*|\\[\\d+\\])*)"$`))?.[1];
  const start = `Variable "$${variable}" got an invalid value${place === undefined ? "" : ` at "${place}"`}`;
  return { message: prefix === null ? `${start}.` : `${start}; ${valueFreeReason(reason!)}`, field: place ?? variable };
}

function valueFreeReason(reason: string): string {
  if (VALUE_FREE_REASONS.some((pattern) => pattern.test(reason))) return reason;
  for (const pattern of EXPECTED_TYPE) {
    const type = pattern.exec(reason)?.[1];
    if (type !== undefined) return `Expected type "${type}".`;
  }
  return "The value does not fit the variable's type.";
}
