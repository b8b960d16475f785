import { appError, type AppError } from "../errors/app-error";

/** 1–255 printable ASCII characters, not starting with a space: what /openapi.json states for the header. */
export const IDEMPOTENCY_KEY_PATTERN = "^[\\x21-\\x7E][\\x20-\\x7E]{0,254}$";
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** How REST sends a key; GraphQL sends it as the mutation's `idempotencyKey` argument. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

type KeyRefusal = "idempotency_key_required" | "idempotency_key_reused" | "idempotency_request_in_progress";

/** GraphQL's words for the refusals the catalogue words for REST's header. */
const ARGUMENT_MESSAGES: Record<KeyRefusal, (field: string) => string> = {
  idempotency_key_required: (field) => `This mutation needs an ${field} argument.`,
  idempotency_key_reused: (field) => `This ${field} was used for a different request.`,
  idempotency_request_in_progress: (field) => `A request with this ${field} is still being processed.`,
};

/** A refusal of an idempotency key naming it as the caller sent it: the `Idempotency-Key` header (the catalogue's words), or a GraphQL argument. */
export function keyRefusal(code: KeyRefusal, field: string): AppError {
  return field === IDEMPOTENCY_HEADER ? appError(code, { field }) : appError(code, { field, message: ARGUMENT_MESSAGES[code](field) });
}

/**
 * A client's idempotency key, checked: 1–255 printable ASCII characters, not starting with a
 * space (a UUID is the usual choice). Null when absent and not `required`; 400
 * `idempotency_key_required` when absent (or empty) and required; 400 `validation_failed` naming
 * `field` for any other value, an empty one included.
 */
export function idempotencyKey(value: unknown, required: boolean, field: string): string | null {
  if (value === undefined || value === null || (required && value === "")) {
    if (required) throw keyRefusal("idempotency_key_required", field);
    return null;
  }
  if (typeof value !== "string" || !KEY.test(value)) {
    throw appError("validation_failed", { field, message: `${field}: must be 1 to 255 printable ASCII characters, e.g. a UUID` });
  }
  return value;
}
