import type { Database } from "../db/database";
import { containsAnyCase } from "../db/text-match";
import type { Tenant } from "../db/models";
import { appError } from "../errors/app-error";
import type { PubSub } from "../events/pubsub";
import type { AuthInvalidation } from "../tenancy/invalidation";
import { newId } from "../ids";
import type { CursorCodec } from "../pagination/cursor";
import { filteredListName } from "../pagination/list-name";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import { isUniqueViolation } from "../db/errors";
import { disambiguatedSlug, slugify } from "./slug";
import type { CreateTenantInput, UpdateTenantInput } from "./tenant.inputs";
import type { TenantTable } from "../gateway/contract/connector";
import { tenantOwnedTables } from "./tenant-owned-data";
import { openingWallet } from "../wallet/opening-balance";
import { clock } from "../clock";
import { Prisma } from "../generated/prisma-sqlite/client";
import type { ChangeOrigin } from "../audit/change-origin";
import { createdFields, fieldChanges, recordAudit } from "../audit/audit-log";
import type { AuditAction } from "../audit/audit-actions";
import { tenantAuditFields } from "./tenant-audit-fields";

const SLUG_ATTEMPTS = 5;
const MAX_SEARCH_LENGTH = 100;
/** Every tenant starts in USD; it may change its `default_currency` later. */
const DEFAULT_CURRENCY = "USD";

/** The owner's management of tenants: create, read, change status, delete. */
export class TenantService {
  constructor(
    private readonly db: Database,
    private readonly pubsub: PubSub,
    private readonly cursors: CursorCodec,
    /** The supplier ids the gateway has: what allowed_suppliers may name. */
    private readonly supplierIds: readonly string[],
    /** The supplier ids that take an account: what platform_accounts may name. */
    private readonly accountSupplierIds: readonly string[],
    /** The connectors' own tables holding tenants' rows, emptied with Aerogate's. */
    private readonly connectorTables: readonly TenantTable[] = [],
  ) {}

  /**
   * Provisions an active tenant with its wallet (sandbox: 100000.00 of play money). The slug
   * comes from the name; when it is taken a random suffix is added (the unique index settles
   * races between concurrent creations).
   */
  async create(input: CreateTenantInput, by: ChangeOrigin): Promise<Tenant> {
    const base = slugify(input.name);
    for (let attempt = 0; ; attempt++) {
      const environment = input.environment ?? "sandbox";
      const now = clock.now();
      try {
        return await this.db.prisma.$transaction(async (tx) => {
          const tenant = await tx.tenant.create({
            data: {
              id: newId("ten", now.getTime()),
              name: input.name,
              email: input.email,
              slug: attempt === 0 ? base : disambiguatedSlug(base),
              environment,
              ownerMetadata: input.metadata ?? {},
              configMetadata: {},
              defaultCurrency: DEFAULT_CURRENCY,
              createdAt: now,
              // Created with its wallet, in the same transaction: every tenant has one.
              ...openingWallet(environment, DEFAULT_CURRENCY, now),
            },
          });
          await recordAudit(tx, this.db, by, { action: "tenant.created", tenantId: tenant.id, target: { type: "tenant", id: tenant.id }, changes: createdFields(tenantAuditFields(tenant)) });
          return tenant;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= SLUG_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Tenants newest first, tombstones included so the owner keeps the history. `search` (trimmed;
   * blank is none) keeps those whose id it is, or whose name, email or slug contains it in any
   * case; 400 `validation_failed` past 100 characters.
   */
  list(request: PageRequest, search?: string): Promise<Page<Tenant>> {
    const text = search?.trim() ?? "";
    if (text.length > MAX_SEARCH_LENGTH) throw appError("validation_failed", { field: "search", message: `search: at most ${MAX_SEARCH_LENGTH} characters` });
    const anyCase = containsAnyCase(this.db.provider, text);
    const where = text ? { OR: [{ id: text }, { name: anyCase }, { email: anyCase }, { slug: anyCase }] } : {};
    return paginate({
      list: filteredListName("tenants", [text || undefined]),
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.tenant.count({ where }),
      fetch: (query) => this.db.prisma.tenant.findMany({ ...query, where: { AND: [where, query.where] } }),
    });
  }

  /** The tenant or its tombstone; 404 `tenant_not_found` if it never existed. */
  async get(tenantId: string): Promise<Tenant> {
    const tenant = await this.db.prisma.tenant.findUnique({ where: { id: tenantId } });
    if (!tenant) throw appError("tenant_not_found");
    return tenant;
  }

  /**
   * Renames, re-addresses, suspends/reactivates a tenant, or sets the suppliers it may use (422
   * `invalid_field_value` for one the gateway does not have). Suspension takes effect at once in
   * every process: the invalidation is heard before this returns. 409 `tenant_deleted` on a tombstone.
   */
  async update(tenantId: string, input: UpdateTenantInput, by: ChangeOrigin): Promise<Tenant> {
    const current = await this.get(tenantId);
    if (current.status === "deleted") throw appError("tenant_deleted");
    requireAmong(input.allowed_suppliers, "allowed_suppliers", this.supplierIds, "a supplier");
    requireAmong(input.platform_accounts, "platform_accounts", this.accountSupplierIds, "a supplier that takes an account");
    await this.db.prisma.$transaction(async (tx) => {
      const before = await tx.tenant.findUnique({ where: { id: tenantId } });
      const updated = await tx.tenant.updateMany({
        where: { id: tenantId, status: { not: "deleted" } },
        data: {
          name: input.name,
          email: input.email,
          ownerMetadata: input.metadata,
          status: input.status,
          allowedSuppliers: input.allowed_suppliers === null ? Prisma.DbNull : input.allowed_suppliers,
          platformAccounts: input.platform_accounts,
        },
      });
      if (updated.count === 0 || !before) throw appError("tenant_deleted");
      const after = await tx.tenant.findUniqueOrThrow({ where: { id: tenantId } });
      const changes = fieldChanges(tenantAuditFields(before), tenantAuditFields(after));
      if (Object.keys(changes).length > 0) await recordAudit(tx, this.db, by, { action: updateAction(before, after), tenantId, target: { type: "tenant", id: tenantId }, changes });
    });
    await this.invalidate(tenantId);
    return this.get(tenantId);
  }

  /**
   * Deletes every row the tenant owns and blanks its personal fields, in one transaction,
   * leaving a tombstone with status `deleted`. Its keys stop working at once. Deleting a
   * tombstone again returns it unchanged.
   */
  async delete(tenantId: string, by: ChangeOrigin): Promise<Tenant> {
    const current = await this.get(tenantId);
    if (current.status === "deleted") return current;
    await this.db.prisma.$transaction(async (tx) => {
      // The tenant row first: writers that lock it (live-tenant.ts, FOR SHARE) then wait for
      // this commit and see the tombstone, and the lock order (tenant, then its rows) is theirs too,
      // so they cannot deadlock with a deletion.
      await tx.tenant.update({
        where: { id: tenantId },
        data: {
          status: "deleted",
          deletedAt: clock.now(),
          name: "",
          email: "",
          ownerMetadata: {},
          configMetadata: {},
          webhookUrl: null,
          webhookEnabled: false,
        },
      });
      for (const { deleteFor } of [...this.connectorTables, ...tenantOwnedTables]) await deleteFor(tx, tenantId);
      // Its audit trail went with its data (tenant-owned-data.ts); the deletion itself is kept.
      await recordAudit(tx, this.db, by, { action: "tenant.deleted", tenantId, target: { type: "tenant", id: tenantId }, changes: { status: { from: current.status, to: "deleted" } } });
    });
    await this.invalidate(tenantId);
    return this.get(tenantId);
  }

  /** Tells every process's caches that this tenant changed. */
  invalidate(tenantId: string): Promise<void> {
    const message: AuthInvalidation = { kind: "tenant", tenantId };
    return this.pubsub.publish("auth", message);
  }
}

/** The action of an update: a change of status is a suspension or a reactivation, anything else an update. */
function updateAction(before: Tenant, after: Tenant): AuditAction {
  if (before.status === after.status) return "tenant.updated";
  return after.status === "suspended" ? "tenant.suspended" : "tenant.reactivated";
}

/** 422 `invalid_field_value` naming `field[i]` for the first id of `ids` that is not among `known` (`what` says what it must be). */
function requireAmong(ids: readonly string[] | null | undefined, field: string, known: readonly string[], what: string): void {
  const unknown = ids?.findIndex((id) => !known.includes(id)) ?? -1;
  if (unknown < 0) return;
  const named = `${field}[${unknown}]`;
  throw appError("invalid_field_value", { field: named, message: `${named}: ${ids![unknown]} is not ${what} (${known.join(", ") || "none"})` });
}
