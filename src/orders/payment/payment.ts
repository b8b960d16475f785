import type { PaymentInput } from "./payment-rules";

/** POST /v1/air/payments, Mutation.payOrder: pay an order's total from the wallet. */
export interface PaymentRequest {
  orderId: string;
  payment: PaymentInput & { type: "balance" };
}

/** A payment made: the order's ticketing debit (its ledger entry carries the payment's id). */
export interface Payment {
  id: string;
  orderId: string;
  type: "balance";
  /** Minor units of `currency`, the order's. */
  amount: number;
  currency: string;
  createdAt: Date;
}
