import type { GraphQLFieldResolver } from "graphql";
import { authorize } from "../context/authorize";
import { isOperation } from "../context/operations";
import type { RequestContext } from "../context/request-context";

export type RootResolvers = Record<string, GraphQLFieldResolver<unknown, RequestContext>>;

/**
 * Puts `authorize` in front of every Query and Mutation field, named after the field in the
 * permission table. A root field missing from the table fails at start, never silently open.
 */
export function guardRootFields(typeName: string, fields: RootResolvers): RootResolvers {
  return Object.fromEntries(
    Object.entries(fields).map(([name, resolve]) => {
      if (!isOperation(name)) throw new Error(`${typeName}.${name} has no entry in context/operations.ts`);
      const guarded: GraphQLFieldResolver<unknown, RequestContext> = async (parent, args, ctx, info) => {
        await authorize(ctx, name);
        return resolve(parent, args, ctx, info);
      };
      return [name, guarded];
    }),
  );
}
