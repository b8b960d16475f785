import type { CombinedError } from "urql";

/** An API error as the console shows it: the catalogue code, its message, and the field it names. */
export interface ApiError {
  code: string;
  message: string;
  field: string | null;
}

/** The errors of a failed operation, as the API reported them (or the network failure). */
export function apiErrors(error: CombinedError | undefined): ApiError[] {
  if (!error) return [];
  if (error.networkError) return [{ code: "network_error", message: `The server could not be reached: ${error.networkError.message}`, field: null }];
  return error.graphQLErrors.map((graphQLError) => {
    const extensions = graphQLError.extensions as { code?: unknown; field?: unknown; requiredPermission?: { resource?: unknown; level?: unknown } };
    const needed = extensions.requiredPermission;
    return {
      code: typeof extensions.code === "string" ? extensions.code : "error",
      // A refusal for permissions says which one the key lacks.
      message: needed ? `${graphQLError.message} It needs ${String(needed.resource)}: ${String(needed.level)}.` : graphQLError.message,
      field: typeof extensions.field === "string" ? extensions.field : null,
    };
  });
}

/**
 * The API's message for each field it found at fault. A validation error names its first field
 * and lists every problem in `reason` ("passengers[0].email: …; passengers[1].email: …"), so
 * each field gets its own message, worded by the API.
 */
export function fieldErrors(error: CombinedError | undefined): Map<string, string> {
  const byField = new Map<string, string>();
  for (const graphQLError of error?.graphQLErrors ?? []) {
    const { field, reason } = graphQLError.extensions as { field?: unknown; reason?: unknown };
    const problems = typeof reason === "string" ? reason.split("; ") : [graphQLError.message];
    for (const problem of problems) {
      const match = /^([\w.[\]]+): (.+)$/.exec(problem);
      if (match) byField.set(match[1]!, match[2]!);
      else if (typeof field === "string" && !byField.has(field)) byField.set(field, problem);
    }
  }
  return byField;
}

/** Whether the API refused the operation because the key may not do it. */
export function isRefusedForPermissions(error: CombinedError | undefined): boolean {
  return apiErrors(error).some((item) => item.code === "insufficient_permissions");
}
