import { BREAK, GraphQLError, Kind, parse, visit, type ASTNode, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from "graphql";
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
  /**
   * Fields in one selection set, its fragments spread (each once): checked before validation,
   * whose rule that same-named fields merge is quadratic in them (540 fields cost 0.47 s of CPU).
   * The widest type has 33 fields; with every alias allowed, 48 distinct selections is the most a
   * set can use.
   */
  maxFieldsPerSelectionSet: 100,
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

/** The fields a selection set holds once its fragments are spread: inline fragments' and each named fragment's once, however often spread. */
function fieldsInSet(selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, spread: Set<string>): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += fieldsInSet(selection.selectionSet, fragments, spread);
    else if (!spread.has(selection.name.value)) {
      spread.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) count += fieldsInSet(fragment.selectionSet, fragments, spread);
    }
  }
  return count;
}

/**
 * 400 `query_too_complex` for a parsed document with a selection set of more than
 * `maxFieldsPerSelectionSet` fields; null when every set is within it. Checked between parsing
 * and validation, over HTTP (`refuseWideSelectionSets`) and WebSocket alike.
 */
export function selectionSetTooWide(document: DocumentNode): AppError | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const max = GRAPHQL_LIMITS.maxFieldsPerSelectionSet;
  let refusal: AppError | null = null;
  visit(document, {
    SelectionSet(selectionSet) {
      const fields = fieldsInSet(selectionSet, fragments, new Set());
      if (fields <= max) return undefined;
      refusal = appError("query_too_complex", { message: `A selection set holds ${fields} fields; the limit is ${max}.` });
      return BREAK;
    },
  });
  return refusal;
}

/** Names in a document's text: a bound on its fields (each field is at least one). */
const NAME = /[_A-Za-z][_0-9A-Za-z]*/g;

/**
 * Refuses (throws 400 `query_too_complex`) a document Apollo is about to parse and validate whose
 * selection sets are too wide. Apollo's own parsing and validation hooks cannot refuse with a
 * client error, so this runs before Apollo, on what it would be given; a document with no more
 * names than the limit cannot exceed it and is not parsed twice, and one that does not parse is
 * Apollo's to answer.
 */
export function refuseWideSelectionSets(source: unknown): void {
  if (typeof source !== "string" || (source.match(NAME)?.length ?? 0) <= GRAPHQL_LIMITS.maxFieldsPerSelectionSet) return;
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: GRAPHQL_LIMITS.maxTokens, noLocation: true });
  } catch {
    return;
  }
  const refusal = selectionSetTooWide(document);
  if (refusal) throw refusal;
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
