import type { Database } from "../../db/database";
import type { ChangeOrigin } from "../../audit/change-origin";
import { createdFields, deletedFields, recordAudit } from "../../audit/audit-log";
import { isUniqueViolation } from "../../db/errors";
import { appError } from "../../errors/app-error";
import { newId } from "../../ids";
import { clock } from "../../clock";
import type { AccountTokens } from "../contract/connector";
import { withTokenFingerprint, type CreateSupplierConnectionInput } from "./supplier-connection.inputs";
import { accountFromRow, tokenMode, type SupplierAccount, type SupplierCredentials } from "./supplier-connections.service";
import type { TokenCipher } from "./token-cipher";

/** The owner's account with a supplier, as it is shown: never its token. */
export type PlatformAccount = SupplierAccount;

/**
 * The owner's own accounts with suppliers that take one (docs/connectors.md#the-owners-platform-account):
 * one per supplier and mode, a test account serving sandbox tenants and a live one live tenants,
 * for the tenants the owner lets book through it (Tenant.platformAccounts). Their fares are paid
 * from the owner's balance at the supplier, and the tenants pay their wallet: `wallet` settlement.
 * Tokens are kept as a tenant's connection's are (TokenCipher, the account's id as associated data).
 */
export class PlatformAccountService {
  constructor(
    private readonly db: Database,
    /** Null when SUPPLIER_SECRETS_KEY is unset: accounts are then refused, and none can be used. */
    private readonly cipher: TokenCipher | null,
    private readonly tokens: ReadonlyMap<string, AccountTokens>,
  ) {}

  /** What an Idempotency-Key fingerprint covers of a request body: the token only as its HMAC. */
  idempotencyInput(body: unknown): unknown {
    return withTokenFingerprint(body, this.cipher && ((token) => this.cipher!.fingerprint(token)));
  }

  /** Every platform account, newest first. */
  async list(): Promise<PlatformAccount[]> {
    const rows = await this.db.prisma.platformAccount.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return rows.map(accountFromRow);
  }

  /**
   * Connects the owner's account: its mode is its token's (422 naming `access_token` for a token
   * of another shape); 409 `platform_account_exists` when the supplier has one of that mode already;
   * 503 `supplier_secrets_unset` without a key to encrypt it with.
   */
  async create(input: CreateSupplierConnectionInput, by: ChangeOrigin): Promise<PlatformAccount> {
    if (!this.cipher) throw appError("supplier_secrets_unset");
    const mode = tokenMode(this.tokens.get(input.supplier), input.access_token);
    const id = newId("spa");
    const encryptedToken = this.cipher.encrypt(input.access_token, associatedData(id));
    try {
      return await this.db.prisma.$transaction(async (tx) => {
        const row = await tx.platformAccount.create({ data: { id, supplier: input.supplier, mode, status: "active", encryptedToken, createdAt: clock.now() } });
        await recordAudit(tx, this.db, by, { action: "platform_account.created", tenantId: null, target: { type: "platform_account", id }, changes: createdFields({ supplier: input.supplier, mode }) });
        return accountFromRow(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw appError("platform_account_exists", { field: "access_token", message: `The platform already has a ${mode} ${input.supplier} account.` });
      throw error;
    }
  }

  /**
   * Removes the account and its token, answering it as it was; 404 for an unknown id. Orders
   * booked through it then fail their next call at the supplier until one of the same mode is
   * connected again (they use the platform's account of their mode, whichever it is).
   */
  async delete(accountId: string, by: ChangeOrigin): Promise<PlatformAccount> {
    const row = await this.db.prisma.platformAccount.findUnique({ where: { id: accountId } });
    if (!row) throw appError("not_found");
    await this.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.platformAccount.deleteMany({ where: { id: accountId } });
      if (count === 0) throw appError("not_found");
      await recordAudit(tx, this.db, by, { action: "platform_account.deleted", tenantId: null, target: { type: "platform_account", id: accountId }, changes: deletedFields({ supplier: row.supplier, mode: row.mode }) });
    });
    return accountFromRow(row);
  }

  /** The platform's credentials for `supplier` in `mode`, or null when it has no such account (or accounts are off). */
  async credentials(supplier: string, mode: "test" | "live"): Promise<SupplierCredentials | null> {
    if (!this.cipher) return null;
    const row = await this.db.prisma.platformAccount.findUnique({ where: { supplier_mode: { supplier, mode } } });
    if (!row) return null;
    return { connectionId: row.id, mode, status: accountFromRow(row).status, accessToken: this.cipher.decrypt(row.encryptedToken, associatedData(row.id)) };
  }

  /** Whether the platform has an account for `supplier` in `mode` that can be used (accounts are on). */
  async has(supplier: string, mode: "test" | "live"): Promise<boolean> {
    if (!this.cipher) return false;
    return (await this.db.prisma.platformAccount.count({ where: { supplier, mode } })) > 0;
  }
}

/** Binds a ciphertext to its row: a token copied onto another account (or a tenant's connection) does not decrypt. */
function associatedData(accountId: string): string {
  return `platform:${accountId}`;
}
