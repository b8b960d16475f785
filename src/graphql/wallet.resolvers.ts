import { tenantScope } from "../context/request-context";
import type { Resolvers, UpdateTenantWalletInput, UpdateWalletInput } from "../generated/graphql";
import { formatMinor } from "../money/format";
import { creditWalletInput, parseUpdateTenantWallet, parseUpdateWallet, walletCredit, walletSettings } from "../wallet/wallet.inputs";
import { parseInput } from "../validation/parse-input";
import { pageRequestFromArgs, toConnection } from "./connection";
import { toGraphQLEnum } from "./enum-case";
import { inGraphQLFieldNames } from "./field-names";
import { idempotentMutation } from "./idempotent-mutation";
import { withoutNulls } from "./tenants.resolvers";
import type { WalletEventUpdate } from "../wallet/wallet-feed";

/** The REST names of the wallet's settings, as GraphQL spells them (a refusal names the field so). */
export const WALLET_FIELD_NAMES: Readonly<Record<string, string>> = {
  credit_limit: "creditLimit",
  low_balance_threshold: "lowBalanceThreshold",
  hold_limits: "holdLimits",
  max_unpaid_orders: "maxUnpaidOrders",
  max_unpaid_seats_per_flight: "maxUnpaidSeatsPerFlight",
};

/** GraphQL's input in REST's names, a field left out staying out and an explicit null kept (it removes a limit or the threshold). */
function restWalletInput(input: UpdateTenantWalletInput | UpdateWalletInput): Record<string, unknown> {
  const limits = "holdLimits" in input ? input.holdLimits : undefined;
  return {
    ...("creditLimit" in input && input.creditLimit !== undefined && { credit_limit: input.creditLimit }),
    ...(input.lowBalanceThreshold !== undefined && { low_balance_threshold: input.lowBalanceThreshold }),
    ...(limits !== undefined &&
      limits !== null && {
        hold_limits: {
          ...(limits.maxUnpaidOrders !== undefined && { max_unpaid_orders: limits.maxUnpaidOrders }),
          ...(limits.maxUnpaidSeatsPerFlight !== undefined && { max_unpaid_seats_per_flight: limits.maxUnpaidSeatsPerFlight }),
        },
      }),
  };
}

export const walletResolvers: Resolvers = {
  Query: {
    wallet: (_parent, _args, ctx) => ctx.services.wallets.standing(tenantScope(ctx).tenantId),
  },
  Subscription: {
    walletEvents: {
      subscribe: (_parent, _args, ctx) => ctx.services.walletFeed.tenantEvents(tenantScope(ctx)),
      resolve: (event: WalletEventUpdate) => event,
    },
  },
  Mutation: {
    updateTenantWallet: (_parent, { tenantId, input }, ctx) =>
      inGraphQLFieldNames(WALLET_FIELD_NAMES, async () => ctx.services.wallets.updateSettings(await ctx.services.tenants.get(tenantId), walletSettings(parseUpdateTenantWallet(restWalletInput(input))), ctx.origin)),
    updateWallet: (_parent, { input }, ctx) =>
      inGraphQLFieldNames(WALLET_FIELD_NAMES, async () =>
        ctx.services.wallets.updateSettings(await ctx.services.tenants.get(tenantScope(ctx).tenantId), walletSettings(parseUpdateWallet(restWalletInput(input))), ctx.origin),
      ),
    creditWallet: (_parent, args, ctx) => {
      const { tenantId, idempotencyKey: _key, ...fields } = args;
      return idempotentMutation(ctx, {
        field: "creditWallet",
        args,
        required: false,
        run: async () => ctx.services.wallets.credit(await ctx.services.tenants.get(tenantId), walletCredit(parseInput(creditWalletInput, withoutNulls(fields))), ctx.origin),
        idOf: (credit) => credit.entry.id,
        load: (entryId) => ctx.services.wallets.creditById(tenantId, entryId),
      });
    },
  },
  Wallet: {
    balance: (wallet) => formatMinor(wallet.balance, wallet.currency),
    creditLimit: (wallet) => formatMinor(wallet.creditLimit, wallet.currency),
    lowBalanceThreshold: (wallet) => (wallet.lowBalanceThreshold === null ? null : formatMinor(wallet.lowBalanceThreshold, wallet.currency)),
    reserved: (wallet) => formatMinor(wallet.reserved, wallet.currency),
    available: (wallet) => formatMinor(wallet.available, wallet.currency),
    transactions: async (wallet, args, ctx) => toConnection(await ctx.services.wallets.transactions(wallet.tenantId, pageRequestFromArgs(args))),
  },
  WalletTransaction: {
    type: (entry) => toGraphQLEnum(entry.type),
    amount: (entry) => formatMinor(entry.amount, entry.currency),
    balanceAfter: (entry) => formatMinor(entry.balanceAfter, entry.currency),
    feeAmount: (entry) => formatMinor(entry.feeAmount, entry.currency),
  },
  WalletCredit: {
    transaction: (credit) => credit.entry,
  },
};
