import { GraphQLError, Kind, type ASTNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from "graphql";
import { AppError, appError } from "../errors/app-error";

/** Limits on one GraphQL document, checked before it runs (HTTP and WebSocket alike). */
export const GRAPHQL_LIMITS = {
  /**
   * Levels of nested fields. The schema has no cycles; its deepest path is 9 (orders → edges →
   * node → offer → slices → segments → passengers → baggages → type), so this refuses only
   * documents no schema field could answer, before anything else checks them.
   */
  maxDepth: 9,
  /** Aliased fields in the whole document. */
  maxAliases: 15,
  /** Operation cost (query-cost.ts): 100 orders with seven fields each cost 801; six such pages pass. */
  maxCost: 5000,
  /** Lexical tokens, enforced by the parser before anything else. */
  maxTokens: 5000,
} as const;

/**
 * A catalogued error as a GraphQL error: `format-error.ts` renders its code, and Apollo answers
 * with the code's HTTP status.
 */
export function limitError(error: AppError, nodes?: ASTNode | ReadonlyArray<ASTNode>): GraphQLError {
  return new GraphQLError(error.message, { nodes, originalError: error, extensions: { http: { status: error.status } } });
}

/**
 * Depth of a selection set: nested fields, through fragments. Introspection fields (`__schema`,
 * `__type`) are exempt: GraphiQL's own introspection query nests `ofType` about eight deep, and
 * the token limit bounds them.
 */
function selectionDepth(selectionSet: SelectionSetNode, context: ValidationContext, fragmentDepths: Map<string, number>): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith("__")) continue;
      const below = selection.selectionSet ? selectionDepth(selection.selectionSet, context, fragmentDepths) : 0;
      deepest = Math.max(deepest, 1 + below);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, selectionDepth(selection.selectionSet, context, fragmentDepths));
    } else {
      const name = selection.name.value;
      if (!fragmentDepths.has(name)) {
        // Marked first, so a fragment cycle (reported by the standard rules) ends here.
        fragmentDepths.set(name, 0);
        const fragment = context.getFragment(name);
        if (fragment) fragmentDepths.set(name, selectionDepth(fragment.selectionSet, context, fragmentDepths));
      }
      deepest = Math.max(deepest, fragmentDepths.get(name)!);
    }
  }
  return deepest;
}

/** Refuses an operation whose fields nest deeper than `max` (400 `query_too_deep`). */
export function maxDepthRule(max: number): ValidationRule {
  return (context) => {
    const fragmentDepths = new Map<string, number>();
    return {
      OperationDefinition(operation) {
        const depth = selectionDepth(operation.selectionSet, context, fragmentDepths);
        if (depth > max) {
          context.reportError(limitError(appError("query_too_deep", { message: `The query nests ${depth} levels deep; the limit is ${max}.` }), operation));
        }
      },
    };
  };
}

/** Refuses a document with more than `max` aliased fields (400 `too_many_aliases`). */
export function maxAliasesRule(max: number): ValidationRule {
  return (context) => {
    let aliases = 0;
    return {
      Field(field) {
        if (field.alias) aliases += 1;
      },
      Document: {
        leave(document) {
          if (aliases > max) {
            context.reportError(limitError(appError("too_many_aliases", { message: `The document uses ${aliases} aliases; the limit is ${max}.` }), document));
          }
        },
      },
    };
  };
}

/**
 * Refuses a string literal holding U+0000 (400 `validation_failed`), as the JSON body parser
 * refuses it in variables: GraphQL decodes `\u0000` in a literal past that parser, and
 * PostgreSQL's text and jsonb cannot store the character (a tenant's name was a 500 there).
 */
export const nulTextRule: ValidationRule = (context) => ({
  StringValue(node) {
    if (node.value.includes("\0")) {
      context.reportError(limitError(appError("validation_failed", { message: "A string in the document holds the NUL character (U+0000), which text may not contain." }), node));
    }
  },
});

/** The validation rules added to GraphQL's own, for HTTP and WebSocket operations. */
export const limitRules: ReadonlyArray<ValidationRule> = [maxDepthRule(GRAPHQL_LIMITS.maxDepth), maxAliasesRule(GRAPHQL_LIMITS.maxAliases), nulTextRule];

/** The parser's answer to a document over `maxTokens` (graphql-js's wording). */
const TOO_MANY_TOKENS = /^Syntax Error: Document contains more tha[nt] \d+ tokens/; // graphql 16 writes "more that"

/** The catalogued error for a parse failure, when it is the token limit. */
export function tokenLimitError(parseMessage: string): AppError | null {
  if (!TOO_MANY_TOKENS.test(parseMessage)) return null;
  return appError("too_many_tokens", { message: `The document has more than ${GRAPHQL_LIMITS.maxTokens} tokens, the limit.` });
}

/** graphql-js appends suggestions of existing names to validation messages: ` Did you mean "viewer"?` */
const SUGGESTION = / Did you mean .+\?$/;

/** A validation message without its field suggestions (live tenants do not get the schema spelled out). */
export function withoutSuggestions(message: string): string {
  return message.replace(SUGGESTION, "");
}
