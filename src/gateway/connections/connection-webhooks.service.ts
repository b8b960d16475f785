import type { ChangeOrigin } from "../../audit/change-origin";
import { appError } from "../../errors/app-error";
import type { Logger } from "../../logger";
import type { TenantScope } from "../../tenancy/tenant-scope";
import type { AccountWebhooks } from "../contract/connector";
import { supplierWebhookPath } from "./supplier-connection.inputs";
import type { SupplierConnection, SupplierConnectionService } from "./supplier-connections.service";

/**
 * Creating a tenant connection's webhook at its supplier, to the connection's own address on this
 * host (PUBLIC_URL + `webhook_path`), and removing it with the connection
 * (docs/connectors.md, the connector's accountWebhooks). The supplier is called outside our transactions: the webhook
 * is created, its secret stored only if no other change came first, then the address's other
 * webhooks are removed. A webhook left by an interrupted call is removed by the next registration.
 */
export class ConnectionWebhookService {
  constructor(
    private readonly connections: Pick<SupplierConnectionService, "webhookTarget" | "setWebhookSecret" | "delete">,
    /** The suppliers whose webhooks an account creates itself, by supplier id. */
    private readonly webhooks: ReadonlyMap<string, AccountWebhooks>,
    /** PUBLIC_URL: where suppliers reach this service; unset, nothing is created (503 `public_url_unset`). */
    private readonly publicUrl: string | undefined,
    private readonly log: Logger,
  ) {}

  /**
   * Creates the connection's webhook at its supplier and keeps its secret: deliveries to the
   * connection's address are then verified. Registering again replaces it. 404 for another
   * tenant's or an unknown id; 503 `public_url_unset`; 422 `unsupported_by_supplier` for a
   * supplier without webhooks to create; 502 `supplier_error` when the supplier refuses; 409
   * `supplier_webhook_changed` when the secret changed meanwhile (another registration won).
   */
  async register(scope: TenantScope, connectionId: string, by: ChangeOrigin): Promise<SupplierConnection> {
    const target = await this.connections.webhookTarget(scope, connectionId);
    const webhooks = this.webhooks.get(target.connection.supplier);
    if (!webhooks) throw appError("unsupported_by_supplier", { reason: `${target.connection.supplier} has no webhooks an account creates` });
    const url = this.addressOf(target.connection);
    if (url === null) throw appError("public_url_unset");
    const created = await webhooks.create(target.accessToken, url);
    let stored: SupplierConnection;
    try {
      stored = await this.connections.setWebhookSecret(scope, connectionId, created.secret, by, { secretVersion: target.secretVersion });
    } catch (error) {
      await webhooks.remove(target.accessToken, created.id).catch((cause: unknown) => this.log.warn({ err: cause, connectionId }, "a webhook this request created at the supplier was not removed"));
      throw error;
    }
    await webhooks.removeAt(target.accessToken, url, created.id).catch((cause: unknown) => this.log.warn({ err: cause, connectionId }, "the connection's earlier webhooks at the supplier were not removed"));
    return stored;
  }

  /** Deletes the connection (SupplierConnectionService.delete), then its webhooks at the supplier: one left behind is only logged (its deliveries are refused). */
  async deleteConnection(scope: TenantScope, connectionId: string, by: ChangeOrigin): Promise<SupplierConnection> {
    const target = this.publicUrl === undefined ? null : await this.connections.webhookTarget(scope, connectionId).catch(() => null);
    const deleted = await this.connections.delete(scope, connectionId, by);
    const webhooks = target && this.webhooks.get(target.connection.supplier);
    const url = target && this.addressOf(target.connection);
    if (webhooks && url) await webhooks.removeAt(target.accessToken, url).catch((cause: unknown) => this.log.warn({ err: cause, connectionId }, "the deleted connection's webhooks at the supplier were not removed"));
    return deleted;
  }

  private addressOf(connection: SupplierConnection): string | null {
    return this.publicUrl === undefined ? null : this.publicUrl.replace(/\/+$/, "") + supplierWebhookPath(connection);
  }
}
