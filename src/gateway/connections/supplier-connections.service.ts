import type { Database } from "../../db/database";
import type { ChangeOrigin } from "../../audit/change-origin";
import { createdFields, deletedFields, recordAudit } from "../../audit/audit-log";
import { isUniqueViolation } from "../../db/errors";
import { appError } from "../../errors/app-error";
import { newId } from "../../ids";
import type { TenantScope } from "../../tenancy/tenant-scope";
import type { AccountTokens } from "../contract/connector";
import { withTokenFingerprint, type CreateSupplierConnectionInput } from "./supplier-connection.inputs";
import type { TokenCipher } from "./token-cipher";

/** A tenant's connection to a supplier, as it is shown: never its token. */
/** An account at a supplier as it is shown (a tenant's connection, the owner's platform account): never its token. */
export interface SupplierAccount {
  id: string;
  supplier: string;
  mode: "test" | "live";
  /** `active`, or `invalid` once the supplier refused the token. */
  status: "active" | "invalid";
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A tenant's connection to a supplier, as it is shown: never its token. */
export interface SupplierConnection extends SupplierAccount {
  /** Whether the tenant set the secret the supplier signs this connection's webhooks with (never shown). */
  webhookSecretSet: boolean;
}

/** A connection whose webhook is being created at its supplier: its token, and its webhook secret's version (the stored ciphertext, compared and never shown). */
export interface WebhookTarget {
  connection: SupplierConnection;
  accessToken: string;
  secretVersion: string | null;
}

/** What a connector needs to call the supplier for a tenant: the connection and its token, decrypted. */
export interface SupplierCredentials {
  connectionId: string;
  mode: "test" | "live";
  status: "active" | "invalid";
  accessToken: string;
}

interface ConnectionRow {
  id: string;
  tenantId: string;
  supplier: string;
  mode: string;
  status: string;
  encryptedToken: string;
  encryptedWebhookSecret: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * Tenants' connections to suppliers that need an account of their own (a connector declaring
 * `account`). The token is encrypted before it is stored and decrypted only for the connector's
 * calls (docs/connectors.md#a-tenants-own-account).
 */
export class SupplierConnectionService {
  constructor(
    private readonly db: Database,
    /** Null when SUPPLIER_SECRETS_KEY is unset: connections are then refused, and none can be used. */
    private readonly cipher: TokenCipher | null,
    /** How each connectable supplier's tokens look, by supplier id. */
    private readonly tokens: ReadonlyMap<string, AccountTokens>,
  ) {}

  /**
   * What an Idempotency-Key fingerprint covers of a request body: the token only as its HMAC
   * (TokenCipher.fingerprint). Without a key to make one the request is refused anyway (503).
   */
  idempotencyInput(body: unknown): unknown {
    return withTokenFingerprint(body, this.cipher && ((token) => this.cipher!.fingerprint(token)));
  }

  /** The tenant's connections, newest first (one per supplier at most). */
  async list(scope: TenantScope): Promise<SupplierConnection[]> {
    const rows = await this.db.prisma.supplierConnection.findMany({ where: { tenantId: scope.tenantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return rows.map(connectionFromRow);
  }

  /**
   * Connects the tenant: the token must have its supplier's shape (422 naming `access_token`), and
   * its mode must be the tenant's environment's (a sandbox tenant takes test tokens, a live one
   * live tokens). 503 `supplier_secrets_unset` without a key to encrypt it with; 409 when the
   * tenant is already connected to the supplier.
   */
  async create(scope: TenantScope, input: CreateSupplierConnectionInput, by: ChangeOrigin): Promise<SupplierConnection> {
    if (!this.cipher) throw appError("supplier_secrets_unset");
    const tokens = this.tokens.get(input.supplier);
    const mode = tokenMode(tokens, input.access_token);
    const expected = modeOf(scope.tenant.environment);
    if (mode !== expected) {
      throw appError("invalid_field_value", {
        field: "access_token",
        message: `access_token: a ${scope.tenant.environment} tenant connects with a ${tokens!.prefix(expected)} token, not a ${mode} one`,
      });
    }
    const id = newId("spc");
    const encryptedToken = this.cipher.encrypt(input.access_token, associatedData(scope.tenantId, id));
    try {
      return await this.db.prisma.$transaction(async (tx) => {
        const row = await tx.supplierConnection.create({
          data: { id, tenantId: scope.tenantId, supplier: input.supplier, mode, status: "active", encryptedToken, createdAt: scope.clock.now() },
        });
        // The supplier and the token's mode; never the token.
        await recordAudit(tx, this.db, by, { action: "supplier_connection.created", tenantId: scope.tenantId, target: { type: "supplier_connection", id }, changes: createdFields({ supplier: input.supplier, mode }) });
        return connectionFromRow(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw appError("supplier_connection_exists", { field: "supplier" });
      throw error;
    }
  }

  /** Removes the tenant's connection and its token, answering it as it was; 404 for another tenant's or an unknown id. */
  async delete(scope: TenantScope, connectionId: string, by: ChangeOrigin): Promise<SupplierConnection> {
    const row = await this.db.prisma.supplierConnection.findFirst({ where: { id: connectionId, tenantId: scope.tenantId } });
    if (!row) throw appError("not_found");
    await this.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.supplierConnection.deleteMany({ where: { id: connectionId, tenantId: scope.tenantId } });
      if (count === 0) throw appError("not_found");
      await recordAudit(tx, this.db, by, { action: "supplier_connection.deleted", tenantId: scope.tenantId, target: { type: "supplier_connection", id: connectionId }, changes: deletedFields({ supplier: row.supplier, mode: row.mode }) });
    });
    return connectionFromRow(row);
  }

  /**
   * Sets (or, with null, removes) the secret the supplier signs this connection's webhooks with
   * (the one it gave when the webhook was created there), encrypted as the token is; audited
   * without it. 404 for another tenant's or an unknown id; 503 `supplier_secrets_unset` when
   * setting one without a key to encrypt it with. With `ifUnchanged` (a WebhookTarget's
   * `secretVersion`): 409 `supplier_webhook_changed` when the secret changed since it was read.
   */
  async setWebhookSecret(scope: TenantScope, connectionId: string, secret: string | null, by: ChangeOrigin, ifUnchanged?: { secretVersion: string | null }): Promise<SupplierConnection> {
    return this.db.prisma.$transaction(async (tx) => {
      const before = await tx.supplierConnection.findFirst({ where: { id: connectionId, tenantId: scope.tenantId } });
      if (!before) throw appError("not_found");
      if (!this.cipher && secret !== null) throw appError("supplier_secrets_unset");
      const encryptedWebhookSecret = secret === null ? null : this.cipher!.encrypt(secret, webhookAssociatedData(scope.tenantId, connectionId));
      const expected = ifUnchanged ? { encryptedWebhookSecret: ifUnchanged.secretVersion } : {};
      const { count } = await tx.supplierConnection.updateMany({ where: { id: connectionId, ...expected }, data: { encryptedWebhookSecret } });
      if (count === 0) throw appError("supplier_webhook_changed");
      const state = (set: boolean) => (set ? "set" : "unset");
      await recordAudit(tx, this.db, by, {
        action: "supplier_connection.webhook_updated",
        tenantId: scope.tenantId,
        target: { type: "supplier_connection", id: connectionId },
        changes: { webhook_signing: { from: state(before.encryptedWebhookSecret !== null), to: state(secret !== null) } },
      });
      return connectionFromRow({ ...before, encryptedWebhookSecret });
    });
  }

  /**
   * The tenant's connection `connectionId` with what creating its webhook at the supplier takes:
   * its token, decrypted, and the version of its webhook secret now (what `setWebhookSecret`'s
   * `ifUnchanged` compares). 404 for another tenant's or an unknown id; 503
   * `supplier_secrets_unset` when connections are off.
   */
  async webhookTarget(scope: TenantScope, connectionId: string): Promise<WebhookTarget> {
    const row = await this.db.prisma.supplierConnection.findFirst({ where: { id: connectionId, tenantId: scope.tenantId } });
    if (!row) throw appError("not_found");
    if (!this.cipher) throw appError("supplier_secrets_unset");
    return { connection: connectionFromRow(row), accessToken: this.cipher.decrypt(row.encryptedToken, associatedData(scope.tenantId, row.id)), secretVersion: row.encryptedWebhookSecret };
  }

  /**
   * The connection a webhook address names, for `supplier`: whose it is and its webhook secret,
   * decrypted (null when none is set); null for an unknown connection, another supplier's, or
   * when connections are off.
   */
  async webhookSecret(supplier: string, connectionId: string): Promise<{ tenantId: string; secret: string | null } | null> {
    if (!this.cipher) return null;
    const row = await this.db.prisma.supplierConnection.findFirst({ where: { id: connectionId, supplier }, select: { tenantId: true, encryptedWebhookSecret: true } });
    if (!row) return null;
    return { tenantId: row.tenantId, secret: row.encryptedWebhookSecret === null ? null : this.cipher.decrypt(row.encryptedWebhookSecret, webhookAssociatedData(row.tenantId, connectionId)) };
  }

  /** The tenant's credentials for `supplier`, or null when it has no connection (or connections are off). */
  async credentials(tenantId: string, supplier: string): Promise<SupplierCredentials | null> {
    if (!this.cipher) return null;
    const row = await this.db.prisma.supplierConnection.findUnique({ where: { tenantId_supplier: { tenantId, supplier } } });
    if (!row) return null;
    const connection = connectionFromRow(row);
    return { connectionId: row.id, mode: connection.mode, status: connection.status, accessToken: this.cipher.decrypt(row.encryptedToken, associatedData(tenantId, row.id)) };
  }

  /** Whether the tenant has a connection to `supplier` that can be used (connections are on). */
  async connected(tenantId: string, supplier: string): Promise<boolean> {
    if (!this.cipher) return false;
    return (await this.db.prisma.supplierConnection.count({ where: { tenantId, supplier } })) > 0;
  }
}

/** The mode a token's shape says (`tokens`: its supplier's), or 422 `invalid_field_value` naming `access_token` (never its value). */
export function tokenMode(tokens: AccountTokens | undefined, token: string): "test" | "live" {
  const read = tokens?.read(token) ?? { problem: "is not a token of this supplier" };
  if ("problem" in read) throw appError("invalid_field_value", { field: "access_token", message: `access_token: ${read.problem}` });
  return read.mode;
}

/** The supplier accounts' mode a tenant of `environment` uses: a sandbox tenant test accounts, a live one live accounts. */
export function modeOf(environment: string): "test" | "live" {
  return environment === "live" ? "live" : "test";
}

/** Binds a ciphertext to its row: a token copied onto another connection does not decrypt. */
function associatedData(tenantId: string, connectionId: string): string {
  return `${tenantId}:${connectionId}`;
}

/** A webhook secret's associated data: neither decrypts as the other (nor on another connection). */
function webhookAssociatedData(tenantId: string, connectionId: string): string {
  return `${tenantId}:${connectionId}:webhook`;
}

/** A stored account as shown (a tenant's connection's row, or a platform account's). */
export function accountFromRow(row: Omit<ConnectionRow, "tenantId" | "encryptedWebhookSecret">): SupplierAccount {
  return {
    id: row.id,
    supplier: row.supplier,
    mode: row.mode === "live" ? "live" : "test",
    status: row.status === "invalid" ? "invalid" : "active",
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

function connectionFromRow(row: ConnectionRow): SupplierConnection {
  return { ...accountFromRow(row), webhookSecretSet: row.encryptedWebhookSecret !== null };
}
