import { tenantScope } from "../context/request-context";
import { creditWalletInput, parseUpdateTenantWallet, parseUpdateWallet, updateTenantWalletInput, updateWalletInput, walletCredit, walletSettings } from "../wallet/wallet.inputs";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { ledgerEntrySchema, walletCreditSchema, walletSchema } from "./wallet.schemas";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";
import { ledgerEntryView, walletView } from "./wallet.views";

const tag = "Wallet";

/** The tenant's prepaid wallet and ledger, and the owner's settings and credits (docs/rest-api.md#wallet). */
export const walletRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/wallet",
    operation: "wallet",
    summary: "The wallet's balance and currency",
    tag,
    response: okSchema(walletSchema),
    handle: async ({ ctx }) => ok(walletView(await ctx.services.wallets.standing(tenantScope(ctx).tenantId))),
  }),
  restRoute({
    method: "GET",
    url: "/v1/wallet/transactions",
    operation: "walletTransactions",
    summary: "The wallet's ledger, newest first: every debit, reversal, refund and credit",
    tag,
    query: listQuery,
    response: okPageSchema(ledgerEntrySchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.wallets.transactions(tenantScope(ctx).tenantId, pageRequestFromQuery(query)), ledgerEntryView),
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/wallet",
    operation: "updateWallet",
    summary: "Set the wallet's low-balance threshold (null: no wallet.low_balance alert)",
    tag,
    body: updateWalletInput,
    parseBody: parseUpdateWallet,
    response: okSchema(walletSchema),
    errors: ["invalid_field_value"],
    handle: async ({ ctx, body }) => {
      const tenant = await ctx.services.tenants.get(tenantScope(ctx).tenantId);
      return ok(walletView(await ctx.services.wallets.updateSettings(tenant, walletSettings(body), ctx.origin)), "Wallet updated");
    },
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/tenants/:id/wallet",
    operation: "updateTenantWallet",
    summary: "Owner: set a tenant wallet's credit limit, low-balance threshold and hold limits (only the fields given change; null removes a limit or the threshold)",
    tag,
    body: updateTenantWalletInput,
    parseBody: parseUpdateTenantWallet,
    response: okSchema(walletSchema),
    errors: ["tenant_not_found", "tenant_deleted", "invalid_field_value"],
    handle: async ({ ctx, params, body }) => ok(walletView(await ctx.services.wallets.updateSettings(await ctx.services.tenants.get(params.id!), walletSettings(body), ctx.origin)), "Wallet updated"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/tenants/:id/wallet/credits",
    operation: "creditWallet",
    summary: "Owner: credit a tenant's wallet (amount in the wallet's currency)",
    tag,
    body: creditWalletInput,
    status: 201,
    response: okSchema(walletCreditSchema),
    // 422 invalid_field_value: a reference holding an invisible or direction-changing character.
    errors: ["tenant_not_found", "tenant_deleted", "currency_mismatch", "amount_too_large", "invalid_field_value"],
    handle: async ({ ctx, params, body }) => {
      const tenant = await ctx.services.tenants.get(params.id!);
      const { entry, wallet } = await ctx.services.wallets.credit(tenant, walletCredit(body), ctx.origin);
      return ok({ transaction: ledgerEntryView(entry), wallet: walletView(wallet) }, "Wallet credited");
    },
  }),
];
