import { z } from "zod";
import { appError } from "../errors/app-error";
import { parseMinor } from "../money/format";
import { refuseHiddenCharacters } from "../validation/shown-text";
import type { WalletCredit } from "./wallet.service";

/** Owner: credit a tenant's wallet (POST /v1/tenants/:id/wallet/credits, Mutation.creditWallet). */
export const creditWalletInput = z.strictObject({
  amount: z.string().min(1),
  currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code, e.g. USD"),
  /** Shown in the ledger and the console: no character that hides or turns text (422). */
  reference: z.string().trim().min(1).max(200).superRefine(refuseHiddenCharacters).optional(),
});

/** The credit in minor units: a positive decimal with at most the currency's decimals (400 otherwise). */
export function walletCredit(input: z.output<typeof creditWalletInput>): WalletCredit {
  const amount = parseMinor(input.amount, input.currency);
  if (amount === null || amount === 0) {
    throw appError("validation_failed", { field: "amount", message: `amount: must be a positive amount in ${input.currency}, e.g. 250.00` });
  }
  return { amount, currency: input.currency, reference: input.reference ?? null };
}
