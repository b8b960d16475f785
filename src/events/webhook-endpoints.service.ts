import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import { isUniqueViolation } from "../db/errors";
import type { Tenant } from "../db/models";
import { sqlEnum } from "../db/sql-enum";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { CursorCodec } from "../pagination/cursor";
import { paginateItems, type Page, type PageRequest } from "../pagination/paginate";
import { clock } from "../clock";
import { ALL_EVENTS, defaultEndpoint, defaultEndpointId, enabledEventsText, ENDPOINT_SLOTS, endpointFromRow, type WebhookEndpoint } from "./webhook-endpoint";
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from "./webhook-endpoint.inputs";
import { newWebhookSecret, PREVIOUS_SECRET_OVERLAP_MS } from "./webhook-secrets";
import { STANDARD_FORMAT } from "./webhook-formats";
import { refuseWebhookDestination, shownWebhookUrl } from "./webhook-url";
import type { ChangeOrigin } from "../audit/change-origin";
import { auditStatement, createdFields, deletedFields, fieldChanges, recordAudit, type AuditedChange } from "../audit/audit-log";

/**
 * The tenant's own webhook settings (PATCH /v1/tenant and its secret rotation), which the default
 * endpoint shows: given by the tenants' configuration service, which owns them.
 */
export interface DefaultEndpointSettings {
  /** Changes the tenant's webhook settings, audited as `audit` (the default endpoint's change). */
  update(scope: TenantScope, patch: { webhook_url?: string | null; webhook_enabled?: boolean }, by: ChangeOrigin, audit: Pick<AuditedChange, "action" | "target">): Promise<Tenant>;
  rotateWebhookSecret(scope: TenantScope, by: ChangeOrigin): Promise<{ webhookSecret: string; previousSecretExpiresAt: Date | null }>;
}

/** A rotation's answer: the new secret (shown once) and when the previous one stops signing. */
export interface EndpointSecretRotation {
  endpointId: string;
  secret: string;
  previousSecretExpiresAt: Date | null;
}

/**
 * What the last claim of a slot may have lost to: creations racing for the same free slot. Each
 * failure means another creation took a slot, so after this many the slots are all but certainly
 * gone; the loop ends there rather than spin against a stream of deletions.
 */
const SLOT_TRIES = ENDPOINT_SLOTS.length * 4;

/**
 * A tenant's webhook endpoints: its default one (its webhook_url, receiving every event) and up
 * to 16 more, each with its URL, the event types it takes and its own signing secrets.
 */
export class WebhookEndpointService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly defaults: DefaultEndpointSettings,
    /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: endpoints may name private addresses. */
    private readonly allowPrivateNetworks: boolean,
  ) {}

  /** The tenant's endpoints of `format`, newest first, the default one (dated as the tenant) among the standard ones: at most 17, read at once. */
  async list(scope: TenantScope, request: PageRequest, format: string = STANDARD_FORMAT): Promise<Page<WebhookEndpoint>> {
    const rows = await this.db.prisma.webhookEndpoint.findMany({ where: { tenantId: scope.tenantId, format } });
    const endpoints = rows.map(endpointFromRow);
    const byDefault = format === STANDARD_FORMAT ? defaultEndpoint(scope.tenant) : null;
    if (byDefault) endpoints.push(byDefault);
    return paginateItems(endpoints, { list: `webhook-endpoints:${format}:${scope.tenantId}`, request, cursors: this.cursors });
  }

  /** The tenant's endpoint of `format`; null for an unknown id, another tenant's or format's, or the default one while there is no webhook_url. */
  async find(scope: TenantScope, endpointId: string, format: string = STANDARD_FORMAT): Promise<WebhookEndpoint | null> {
    if (endpointId === defaultEndpointId(scope.tenantId)) return format === STANDARD_FORMAT ? defaultEndpoint(scope.tenant) : null;
    const row = await this.db.prisma.webhookEndpoint.findFirst({ where: { id: endpointId, tenantId: scope.tenantId, format } });
    return row ? endpointFromRow(row) : null;
  }

  /** As `find`, 404 `not_found` when there is none. */
  async get(scope: TenantScope, endpointId: string, format: string = STANDARD_FORMAT): Promise<WebhookEndpoint> {
    const endpoint = await this.find(scope, endpointId, format);
    if (!endpoint) throw appError("not_found");
    return endpoint;
  }

  /**
   * Makes an endpoint with a signing secret of its own, returned as `issuedSecret` this once. It
   * receives the events committed after it. A tenant has at most 16 besides its default one
   * (422 `webhook_endpoint_limit_reached`): each takes a free slot of the 16, and the database
   * keeps a slot one endpoint's, so creations racing for the last slots cannot pass the limit.
   * Its URL follows the tenant's webhook_url rules (422 `invalid_field_value` naming `url`).
   */
  async create(scope: TenantScope, input: CreateWebhookEndpointInput, by: ChangeOrigin, format: string = STANDARD_FORMAT): Promise<WebhookEndpoint> {
    refuseWebhookDestination("url", input.url, { environment: scope.tenant.environment, allowPrivateNetworks: this.allowPrivateNetworks });
    const { provider } = this.db;
    const secret = newWebhookSecret();
    const id = newId("whe");
    for (let tries = 0; tries < SLOT_TRIES; tries++) {
      const taken = new Set((await this.db.prisma.webhookEndpoint.findMany({ where: { tenantId: scope.tenantId }, select: { slot: true } })).map((row) => row.slot));
      const slot = ENDPOINT_SLOTS.find((candidate) => !taken.has(candidate));
      if (slot === undefined) break;
      const at = sqlTimestamp(provider, scope.clock.now());
      const audited = { action: "webhook_endpoint.created" as const, tenantId: scope.tenantId, target: { type: "webhook_endpoint", id }, changes: createdFields(endpointAuditFields({ url: input.url, enabledEvents: input.enabled_events, description: input.description ?? null, enabled: input.enabled ?? true })) };
      try {
        await writeBatch(this.db, [
          guarded(
            Sql.sql`INSERT INTO "WebhookEndpoint" ("id", "tenantId", "slot", "url", "enabledEvents", "description", "enabled", "format", "webhookSecret", "createdAt", "updatedAt")
              SELECT ${id}, "id", ${slot}, ${input.url}, ${enabledEventsText(input.enabled_events)}, ${input.description ?? null}, ${Sql.raw(input.enabled === false ? "FALSE" : "TRUE")}, ${format}, ${secret}, ${at}, ${at}
              FROM "Tenant" WHERE "id" = ${scope.tenantId} AND "status" <> 'deleted'`,
            "tenant",
          ),
          auditStatement(this.db, by, audited),
        ]);
        return { ...(await this.get(scope, id, format)), issuedSecret: secret };
      } catch (error) {
        if (error instanceof GuardFailed) throw appError("tenant_not_found");
        // Another creation took this slot first: look for another.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw appError("webhook_endpoint_limit_reached");
  }

  /**
   * Changes the fields given. The default endpoint's are the tenant's webhook settings: its url
   * and enabled change webhook_url and webhook_enabled, by their rules; it always takes every
   * event and keeps its description (422 `invalid_field_value` naming the field otherwise).
   * Events committed after the change follow it; deliveries already queued keep their endpoint.
   */
  async update(scope: TenantScope, endpointId: string, patch: UpdateWebhookEndpointInput, by: ChangeOrigin, format: string = STANDARD_FORMAT): Promise<WebhookEndpoint> {
    if (endpointId === defaultEndpointId(scope.tenantId) && format === STANDARD_FORMAT) return this.updateDefault(scope, patch, by);
    if (patch.url !== undefined) refuseWebhookDestination("url", patch.url, { environment: scope.tenant.environment, allowPrivateNetworks: this.allowPrivateNetworks });
    await this.db.prisma.$transaction(async (tx) => {
      const before = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, tenantId: scope.tenantId, format } });
      const { count } = await tx.webhookEndpoint.updateMany({
        where: { id: endpointId, tenantId: scope.tenantId, format },
        data: {
          url: patch.url,
          enabledEvents: patch.enabled_events && enabledEventsText(patch.enabled_events),
          description: patch.description,
          enabled: patch.enabled,
          updatedAt: scope.clock.now(),
        },
      });
      if (count === 0 || !before) throw appError("not_found");
      const after = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
      const changes = fieldChanges(endpointAuditFields(endpointFromRow(before)), endpointAuditFields(endpointFromRow(after)));
      if (Object.keys(changes).length > 0) await recordAudit(tx, this.db, by, { action: "webhook_endpoint.updated", tenantId: scope.tenantId, target: { type: "webhook_endpoint", id: endpointId }, changes });
    });
    return this.get(scope, endpointId, format);
  }

  private async updateDefault(scope: TenantScope, patch: UpdateWebhookEndpointInput, by: ChangeOrigin): Promise<WebhookEndpoint> {
    if (!defaultEndpoint(scope.tenant)) throw appError("not_found");
    if (patch.enabled_events && patch.enabled_events[0] !== ALL_EVENTS) {
      throw appError("invalid_field_value", { field: "enabled_events", message: `enabled_events: the default endpoint receives every event ("${ALL_EVENTS}"); create an endpoint for fewer` });
    }
    if (patch.description !== undefined) {
      throw appError("invalid_field_value", { field: "description", message: "description: the default endpoint's cannot be changed" });
    }
    if (patch.url === undefined && patch.enabled === undefined) return defaultEndpoint(scope.tenant)!;
    const target = { type: "webhook_endpoint", id: defaultEndpointId(scope.tenantId) };
    const tenant = await this.defaults.update(scope, { webhook_url: patch.url, webhook_enabled: patch.enabled }, by, { action: "webhook_endpoint.updated", target });
    return defaultEndpoint(tenant)!;
  }

  /**
   * Removes an endpoint; returns it as it was. It receives nothing more: its deliveries still
   * waiting (for their first attempt or a retry) fail at once, unsent ("the endpoint was
   * deleted"); one being attempted meanwhile records what its receiver answered, and fails unsent
   * should it need another attempt. Its deliveries stay in the log. The default endpoint is
   * deleted by clearing the tenant's webhook_url (which disables webhooks); it comes back when a
   * URL is set again.
   */
  async delete(scope: TenantScope, endpointId: string, by: ChangeOrigin, format: string = STANDARD_FORMAT): Promise<WebhookEndpoint> {
    const endpoint = await this.get(scope, endpointId, format);
    const failPending = this.failPendingDeliveries(scope.tenantId, endpointId);
    const target = { type: "webhook_endpoint", id: endpointId };
    if (endpoint.isDefault) {
      await this.defaults.update(scope, { webhook_url: null }, by, { action: "webhook_endpoint.deleted", target });
      await writeBatch(this.db, [failPending]);
      return endpoint;
    }
    try {
      await writeBatch(this.db, [
        guarded(Sql.sql`DELETE FROM "WebhookEndpoint" WHERE "id" = ${endpointId} AND "tenantId" = ${scope.tenantId}`, "endpoint exists"),
        failPending,
        auditStatement(this.db, by, { action: "webhook_endpoint.deleted", tenantId: scope.tenantId, target, changes: deletedFields(endpointAuditFields(endpoint)) }),
      ]);
    } catch (error) {
      // Deleted by a request racing this one.
      if (error instanceof GuardFailed) throw appError("not_found");
      throw error;
    }
    return endpoint;
  }

  /** The endpoint's deliveries not being attempted and waiting for one, failed unsent. */
  private failPendingDeliveries(tenantId: string, endpointId: string): Sql.Sql {
    const { provider } = this.db;
    const now = sqlTimestamp(provider, clock.now());
    return Sql.sql`UPDATE "WebhookDelivery" SET "status" = ${sqlEnum(provider, "WebhookDeliveryStatus", "failed")}, "nextAttemptAt" = NULL,
      "lastError" = 'the endpoint was deleted', "updatedAt" = ${now}
      WHERE "tenantId" = ${tenantId} AND "endpointId" = ${endpointId} AND "status" = ${sqlEnum(provider, "WebhookDeliveryStatus", "pending")}
        AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})`;
  }

  /**
   * Replaces the endpoint's signing secret, as the tenant's rotation does: for 24 hours the
   * previous one signs every delivery too, so a receiver can switch without losing events; a
   * second rotation within them retires the first secret at once. One statement, so concurrent
   * rotations each keep the secret they replaced. The default endpoint's is the tenant's secret.
   */
  async rotateSecret(scope: TenantScope, endpointId: string, by: ChangeOrigin): Promise<EndpointSecretRotation> {
    if (endpointId === defaultEndpointId(scope.tenantId)) {
      if (!defaultEndpoint(scope.tenant)) throw appError("not_found");
      const rotated = await this.defaults.rotateWebhookSecret(scope, by);
      return { endpointId, secret: rotated.webhookSecret, previousSecretExpiresAt: rotated.previousSecretExpiresAt };
    }
    const { provider } = this.db;
    const secret = newWebhookSecret();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + PREVIOUS_SECRET_OVERLAP_MS);
    try {
      await writeBatch(this.db, [
        guarded(
          Sql.sql`UPDATE "WebhookEndpoint" SET "previousWebhookSecret" = "webhookSecret", "previousWebhookSecretExpiresAt" = ${sqlTimestamp(provider, expiresAt)},
            "webhookSecret" = ${secret}, "updatedAt" = ${sqlTimestamp(provider, now)}
            WHERE "id" = ${endpointId} AND "tenantId" = ${scope.tenantId}`,
          "endpoint exists",
        ),
        // When the previous secret stops signing; never a secret.
        auditStatement(this.db, by, {
          action: "webhook_endpoint.secret_rotated",
          tenantId: scope.tenantId,
          target: { type: "webhook_endpoint", id: endpointId },
          changes: { previous_secret_expires_at: { from: null, to: expiresAt.toISOString() } },
        }),
      ]);
    } catch (error) {
      if (error instanceof GuardFailed) throw appError("not_found");
      throw error;
    }
    return { endpointId, secret, previousSecretExpiresAt: expiresAt };
  }
}

/** What the audit log records of an endpoint, by the API's field names (its URL without credentials). */
function endpointAuditFields(endpoint: Pick<WebhookEndpoint, "url" | "enabledEvents" | "description" | "enabled">) {
  return { url: shownWebhookUrl(endpoint.url), enabled_events: endpoint.enabledEvents, description: endpoint.description, enabled: endpoint.enabled };
}
