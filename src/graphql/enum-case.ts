/** GraphQL enums are UPPER_CASE by convention; the domain stores lower_case values. */
export function toGraphQLEnum<T extends string>(value: T): Uppercase<T> {
  return value.toUpperCase() as Uppercase<T>;
}

export function fromGraphQLEnum<T extends string>(value: T): Lowercase<T> {
  return value.toLowerCase() as Lowercase<T>;
}
