import { z } from "zod";
import { metadataSchema } from "./metadata";
import { webhookUrlInput } from "../events/webhook-url";
import { canonicalTimeZone, isIsoCurrency, TIME_ZONES } from "./config-values";
import { USD_RATES, isPricingCurrency } from "../money/exchange-rates";
import { appError } from "../errors/app-error";
import { parseInput } from "../validation/parse-input";
import { jsonBodyProblem } from "../validation/json-body-problem";

/** Fields a tenant can read but never change; naming one in a PATCH is a 422, not a silent no-op. */
const IMMUTABLE_CONFIG_FIELDS = ["id", "name", "slug", "environment", "status", "created_at", "updated_at"] as const;

const webhookUrl = webhookUrlInput.nullable();

/** PATCH /v1/tenant and Mutation.updateTenantConfig (docs/rest-api.md#tenant-configuration: every invalid field is a 422). */
export const updateTenantConfigInput = z
  .strictObject({
    webhook_url: webhookUrl.optional(),
    webhook_enabled: z.boolean().optional(),
    default_currency: z
      .string()
      .refine(isIsoCurrency, { message: "must be an ISO 4217 currency code in use, e.g. EUR", abort: true })
      .refine(isPricingCurrency, { message: `must be a currency offers can be priced in: ${Object.keys(USD_RATES).join(", ")}` })
      .meta({ enum: Object.keys(USD_RATES) })
      .optional(),
    timezone: z
      .string()
      .refine((zone) => canonicalTimeZone(zone) !== null, { message: "must be an IANA time zone, e.g. Europe/Paris" })
      // Other letter cases and the zones' older names are taken too, and written as the canonical name.
      .meta({ enum: TIME_ZONES })
      .transform((zone) => canonicalTimeZone(zone)!)
      .optional(),
    metadata: metadataSchema.optional(),
    /** Supplier ids, in the tenant's order of preference; the service checks each is one it has. */
    suppliers: z
      .array(z.string().min(1).max(64))
      .min(1, "name at least one supplier")
      .max(16)
      .refine((ids) => new Set(ids).size === ids.length, "names a supplier twice")
      .meta({ uniqueItems: true })
      .optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "send at least one updatable field" })
  .meta({ minProperties: 1 });

export type UpdateTenantConfigInput = z.infer<typeof updateTenantConfigInput>;

/**
 * Whether a patch changes webhook settings, which are a `webhooks` matter as well as configuration
 * (docs/authentication.md#key-permissions): such a patch needs `webhooks: write` besides `tenant: write`, so a key that may
 * not touch webhooks cannot repoint them here either.
 */
export function namesWebhookSettings(patch: UpdateTenantConfigInput): boolean {
  return patch.webhook_url !== undefined || patch.webhook_enabled !== undefined;
}

/**
 * Parses a configuration patch; any invalid field, wrong types included, is 422 `invalid_field_value`.
 * So is text holding U+0000, which every other route refuses as 400 `validation_failed` in the JSON
 * body parser (PATCH /v1/tenant leaves it to this: its route declares `validatesNulText`), and which
 * a GraphQL string literal can carry past that parser.
 */
export function parseTenantConfigPatch(body: unknown): UpdateTenantConfigInput {
  if (typeof body === "object" && body !== null) {
    const immutable = IMMUTABLE_CONFIG_FIELDS.find((field) => Object.hasOwn(body, field));
    if (immutable) throw appError("invalid_field_value", { field: immutable, message: `${immutable}: cannot be changed` });
  }
  const problem = jsonBodyProblem(body, true);
  if (problem !== null) throw appError("invalid_field_value", { field: problem.field, message: `${problem.field}: ${problem.reason}` });
  return parseInput(updateTenantConfigInput, body, "invalid_field_value");
}
