import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { mergeResolvers } from "@graphql-tools/merge";
import { DateTimeResolver, JSONObjectResolver } from "graphql-scalars";
import type { GraphQLSchema } from "graphql";
import type { Resolvers } from "../generated/graphql";
import { guardRootFields, guardSubscriptionFields, type RootResolvers, type SubscriptionResolvers } from "./guard";
import { tenantConfigResolvers } from "./tenant-config.resolvers";
import { tenantResolvers } from "./tenants.resolvers";
import { viewerResolvers } from "./viewer.resolvers";
import { locationResolvers } from "./locations.resolvers";
import { offerResolvers } from "./offers.resolvers";
import { fareCalendarResolvers } from "./fare-calendar.resolvers";
import { seatMapResolvers } from "./seat-maps.resolvers";
import { orderResolvers } from "./orders.resolvers";
import { orderServiceResolvers } from "./order-services.resolvers";
import { orderHistoryResolvers } from "./order-history.resolvers";
import { cancellationResolvers } from "./cancellations.resolvers";
import { orderSubscriptionResolvers } from "./order-subscriptions.resolvers";
import { orderChangeResolvers } from "./order-changes.resolvers";
import { airlineChangeResolvers } from "./airline-changes.resolvers";
import { walletResolvers } from "./wallet.resolvers";
import { webhookResolvers } from "./webhooks.resolvers";
import { supplierResolvers } from "./suppliers.resolvers";
import { supplierConnectionResolvers } from "./supplier-connections.resolvers";
import { platformAccountResolvers } from "./platform-accounts.resolvers";
import { sandboxClockResolvers } from "./sandbox-clock.resolvers";
import { inputScalars } from "./input-scalars";
import { pricingRuleResolvers } from "./pricing-rules.resolvers";
import { auditEventResolvers } from "./audit-events.resolvers";
import { statementResolvers } from "./statements.resolvers";
import { overviewResolvers } from "./overview.resolvers";

const SDL_PATH = fileURLToPath(new URL("../../schema.graphql", import.meta.url));

/** The executable schema: schema.graphql, every domain's resolvers, and the guard on every root field (subscriptions too). */
export function buildSchema(): GraphQLSchema {
  const merged = mergeResolvers([viewerResolvers, tenantResolvers, tenantConfigResolvers, locationResolvers, offerResolvers, fareCalendarResolvers, seatMapResolvers, orderResolvers, orderServiceResolvers, orderHistoryResolvers, cancellationResolvers, orderChangeResolvers, airlineChangeResolvers, orderSubscriptionResolvers, walletResolvers, webhookResolvers, supplierResolvers, supplierConnectionResolvers, platformAccountResolvers, sandboxClockResolvers, pricingRuleResolvers, auditEventResolvers, statementResolvers, overviewResolvers]) as Resolvers & Record<string, any>;
  return makeExecutableSchema({
    typeDefs: readFileSync(SDL_PATH, "utf8"),
    resolvers: {
      ...merged,
      DateTime: DateTimeResolver,
      JSONObject: JSONObjectResolver,
      ...inputScalars,
      Query: guardRootFields("Query", (merged.Query ?? {}) as RootResolvers),
      Mutation: guardRootFields("Mutation", (merged.Mutation ?? {}) as RootResolvers),
      Subscription: guardSubscriptionFields((merged.Subscription ?? {}) as SubscriptionResolvers),
    },
  });
}
