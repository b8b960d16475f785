/** Every action the audit log records: each configuration change a key can make. */
export const AUDIT_ACTIONS = [
  "tenant.created",
  "tenant.updated",
  "tenant.suspended",
  "tenant.reactivated",
  "tenant.deleted",
  "api_key.created",
  "api_key.revoked",
  "tenant_config.updated",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.deleted",
  "webhook_endpoint.secret_rotated",
  "pricing_rule.created",
  "pricing_rule.updated",
  "pricing_rule.deleted",
  "wallet.credited",
  "wallet.settings_updated",
  "supplier_connection.created",
  "supplier_connection.deleted",
  "platform_account.created",
  "platform_account.deleted",
  "supplier_connection.webhook_updated",
  "sandbox_clock.advanced",
  "sandbox_clock.reset",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
