import { requestTenantId, type RequestContext } from "../context/request-context";
import { AppError, type AppErrorDetails } from "../errors/app-error";
import { errorCatalogue, type ErrorCode } from "../errors/catalogue";
import { requestFingerprint } from "../idempotency/fingerprint";
import { idempotencyKey } from "../idempotency/idempotency-key";
import { OWNER_SCOPE } from "../idempotency/idempotency.service";

/** The argument a mutation takes its key in, named by its refusals. */
const KEY_ARGUMENT = "idempotencyKey";

type Stored = { result: string } | { error: { code: ErrorCode; details: AppErrorDetails } };

export interface IdempotentMutation<T> {
  /** The root field, which with `args` (the key left out) identifies the request. */
  field: string;
  args: Record<string, unknown> & { idempotencyKey?: string | null };
  required: boolean;
  run: () => Promise<T>;
  /** What identifies the result (an order id), kept with the key. */
  idOf: (result: T) => string;
  /** The result a repeat returns: the same record, as it is now. */
  load: (id: string) => Promise<T>;
}

/**
 * A mutation under an `idempotencyKey`, with the REST rules (docs/rest-api.md#idempotency) and the same key
 * space: the first call runs; a repeat with the same input returns the same record (as it is
 * now: a GraphQL client chooses its fields, so there is no byte-for-byte body to replay) or the
 * same catalogued error (with the reason its repeats give, when it has one of its own:
 * `replayReason`); 409 while the first still runs; 422 for another input.
 */
export async function idempotentMutation<T>(ctx: RequestContext, mutation: IdempotentMutation<T>): Promise<T> {
  const { idempotencyKey: given, ...input } = mutation.args;
  const key = idempotencyKey(given, mutation.required, KEY_ARGUMENT);
  if (key === null) return mutation.run();
  const tenantId = requestTenantId(ctx);
  let fresh: { result: T } | { error: AppError } | null = null;
  const outcome = await ctx.services.idempotency.run(
    { scope: tenantId ?? OWNER_SCOPE, tenantId, key, field: KEY_ARGUMENT, fingerprint: requestFingerprint(`graphql ${mutation.field}`, input) },
    async () => {
      let stored: Stored;
      try {
        const result = await mutation.run();
        fresh = { result };
        stored = { result: mutation.idOf(result) };
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        fresh = { error };
        const { replayReason, ...details } = error.details;
        stored = { error: { code: error.code, details: replayReason === undefined ? details : { ...details, reason: replayReason } } };
      }
      return { status: "error" in stored ? errorCatalogue[stored.error.code].status : 200, body: JSON.stringify(stored) };
    },
  );
  const answered = fresh as { result: T } | { error: AppError } | null;
  if (answered) {
    if ("error" in answered) throw answered.error;
    return answered.result;
  }
  const stored = JSON.parse(outcome.body) as Stored;
  if ("error" in stored) throw new AppError(stored.error.code, stored.error.details);
  return mutation.load(stored.result);
}
