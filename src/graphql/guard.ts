import type { GraphQLFieldResolver } from "graphql";
import { authorize } from "../context/authorize";
import { isOperation, type Operation } from "../context/operations";
import type { RequestContext } from "../context/request-context";

type Resolver = GraphQLFieldResolver<unknown, RequestContext>;
export type RootResolvers = Record<string, Resolver>;
export type SubscriptionResolvers = Record<string, { subscribe: Resolver; resolve?: Resolver }>;

function operationOf(typeName: string, name: string): Operation {
  if (!isOperation(name)) throw new Error(`${typeName}.${name} has no entry in context/operations.ts`);
  return name;
}

function guarded(operation: Operation, resolve: Resolver): Resolver {
  return async (parent, args, ctx, info) => {
    await authorize(ctx, operation, args);
    return resolve(parent, args, ctx, info);
  };
}

/**
 * Puts `authorize` in front of every Query and Mutation field, named after the field in the
 * permission table. A root field missing from the table fails at start, never silently open.
 */
export function guardRootFields(typeName: string, fields: RootResolvers): RootResolvers {
  return Object.fromEntries(Object.entries(fields).map(([name, resolve]) => [name, guarded(operationOf(typeName, name), resolve)]));
}

/** The same for Subscription fields: checked once, when the subscription starts. */
export function guardSubscriptionFields(fields: SubscriptionResolvers): SubscriptionResolvers {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, { ...field, subscribe: guarded(operationOf("Subscription", name), field.subscribe) }]),
  );
}
