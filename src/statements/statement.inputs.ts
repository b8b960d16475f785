import { appError } from "../errors/app-error";

/**
 * A statement's month, `YYYY-MM` (422 `invalid_field_value` naming `month` otherwise): what
 * the path names.
 */
export function parseStatementMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12 || Number(match[1]) < 2000) {
    throw appError("invalid_field_value", { field: "month", message: "month: must be a month, YYYY-MM, e.g. 2027-01" });
  }
  return month;
}
