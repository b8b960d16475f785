import { appError } from "../errors/app-error";

/** 1–255 printable ASCII characters, not starting with a space: what /openapi.json states for the header. */
export const IDEMPOTENCY_KEY_PATTERN = "^[\\x21-\\x7E][\\x20-\\x7E]{0,254}$";
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/**
 * A client's idempotency key, checked: 1–255 printable ASCII characters, not starting with a
 * space (a UUID is the usual choice). Null when absent and not `required`; 400
 * `idempotency_key_required` when absent (or empty) and required; 400 `validation_failed` naming
 * `field` for any other value, an empty one included.
 */
export function idempotencyKey(value: unknown, required: boolean, field: string): string | null {
  if (value === undefined || value === null || (required && value === "")) {
    if (required) throw appError("idempotency_key_required", { field });
    return null;
  }
  if (typeof value !== "string" || !KEY.test(value)) {
    throw appError("validation_failed", { field, message: `${field}: must be 1 to 255 printable ASCII characters, e.g. a UUID` });
  }
  return value;
}
