import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import { creditWalletInput, walletCredit } from "../wallet/wallet.inputs";
import { parseInput } from "../validation/parse-input";
import { pageRequestFromArgs, toConnection } from "./connection";
import { toGraphQLEnum } from "./enum-case";
import { idempotentMutation } from "./idempotent-mutation";
import { withoutNulls } from "./tenants.resolvers";

export const walletResolvers: Resolvers = {
  Query: {
    wallet: (_parent, _args, ctx) => ctx.services.wallets.get(tenantScope(ctx).tenantId),
  },
  Mutation: {
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
