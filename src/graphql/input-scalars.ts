import type { GraphQLScalarType } from "graphql";
import { LocalDateResolver, RegularExpression } from "graphql-scalars";

/**
 * The scalars of input values whose shape the server checks (schema.graphql describes each, and
 * names the standard it follows), so introspection tells a client what an argument takes: a
 * value off its shape is refused while the variables are read (400 `validation_failed` naming
 * the variable), before any resolver runs. Each is the REST layer's rule for the same value
 * (docs/request-rules.md); a value of the right shape can still be refused by the domain (an
 * unknown airport, a date in the past).
 */
const pattern = (name: string, shape: RegExp) => new RegularExpression(name, shape, { stringOnly: true });

/** Only how each parses and serialises: the description and `@specifiedBy` stay schema.graphql's. */
function parsing(scalar: GraphQLScalarType) {
  const { serialize, parseValue, parseLiteral } = scalar.toConfig();
  return { serialize, parseValue, parseLiteral };
}

export const inputScalars = {
  LocalDate: parsing(LocalDateResolver),
  IataCode: parsing(pattern("IataCode", /^[A-Za-z]{3}$/)),
  CurrencyCode: parsing(pattern("CurrencyCode", /^[A-Z]{3}$/)),
  CountryCode: parsing(pattern("CountryCode", /^[A-Z]{2}$/)),
  DecimalAmount: parsing(pattern("DecimalAmount", /^\d{1,13}(\.\d+)?$/)),
  YearMonth: parsing(pattern("YearMonth", /^\d{4}-(0[1-9]|1[0-2])$/)),
};
