import { appError } from "../errors/app-error";

const KEY = /^[\x21-\x7E][\x20-\x7E]{0,254}$/;

/**
 * A client's idempotency key, checked: 1–255 printable ASCII characters, not starting with a
 * space (a UUID is the usual choice). 400 `validation_failed` naming `field` otherwise; null
 * when absent and not `required`, 400 `idempotency_key_required` when absent and required.
 */
export function idempotencyKey(value: unknown, required: boolean, field: string): string | null {
  if (value === undefined || value === null || value === "") {
    if (required) throw appError("idempotency_key_required", { field });
    return null;
  }
  if (typeof value !== "string" || !KEY.test(value)) {
    throw appError("validation_failed", { field, message: `${field}: must be 1 to 255 printable ASCII characters, e.g. a UUID` });
  }
  return value;
}
