import { errorCatalogue, type ErrorCode } from "./catalogue";

export interface AppErrorDetails {
  /** The request field at fault, as the caller wrote it (e.g. `slices[0].origin`). */
  field?: string;
  /** A specific explanation, for humans; the catalogue message stays the generic one. */
  reason?: string;
  /**
   * The reason a repeat of this answer gives (an Idempotency-Key replay, answered to any key of
   * the tenant), when `reason` shows what only this caller may see (the wallet's balance).
   */
  replayReason?: string;
  /** Overrides the catalogue message when the specific one reads better on its own. */
  message?: string;
  /** Overrides the catalogue's suggested action when this refusal's own limits differ (a lookup's limit is 1 to 15). */
  action?: string;
  /** Seconds to wait before retrying (429, 503, 507): the Retry-After header, and `retryAfterSeconds` in GraphQL. */
  retryAfterSeconds?: number;
  /**
   * The resource and level the key lacked (403 `insufficient_permissions`), named as
   * tenancy/key-permissions.ts names them; the catalogue imports nothing of ours, so plain text here.
   */
  requiredPermission?: { resource: string; level: string };
}

/** The only error domain code throws. Anything else reaching a boundary is a 500. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: AppErrorDetails;

  constructor(code: ErrorCode, details: AppErrorDetails = {}) {
    super(details.message ?? errorCatalogue[code].message);
    this.name = "AppError";
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = details;
  }
}

export function appError(code: ErrorCode, details?: AppErrorDetails): AppError {
  return new AppError(code, details);
}
