import { Kind, visit, type DocumentNode, type OperationDefinitionNode, type ValueNode } from "graphql";
import { authorize } from "../context/authorize";
import { tenantScope, type RequestContext } from "../context/request-context";
import { RecentMap } from "../recent-map";

/** Answers kept: at least the 2,000 most recent (an answer is the size of its offers' fields). */
const ANSWERS_KEPT = 2000;

interface KeptAnswer {
  body: string;
  /** When the first of its offers stops being kept: the answer changes then (to null). */
  keptUntil: number;
}

/**
 * Answers of prepared operations that only read offers by id: every root field `offer(id:)`, and
 * no `expired` anywhere (the one offer field that changes with time). While every offer it names
 * is kept, such an operation answers the same bytes to the same key (its tenant and permissions
 * never change), the same text and the same variables, so the answer is kept and sent again, as
 * single-offer retrievals are over REST; the operation is still charged and authorised on every
 * request. An answer is dropped when the first offer it shows stops being kept.
 */
export class OfferAnswers {
  readonly #answers = new RecentMap<string, KeptAnswer>(ANSWERS_KEPT);
  readonly #readsOnlyOffers = new WeakMap<OperationDefinitionNode, boolean>();

  /** The key of the operation's answer for this caller, or null when its answer is not kept. */
  keyFor(document: DocumentNode, operation: OperationDefinitionNode, query: string, variables: Record<string, unknown> | undefined, ctx: RequestContext): string | null {
    let readsOnlyOffers = this.#readsOnlyOffers.get(operation);
    if (readsOnlyOffers === undefined) this.#readsOnlyOffers.set(operation, (readsOnlyOffers = onlyOffersById(document, operation)));
    return readsOnlyOffers ? `${ctx.principal.keyId} ${ctx.serviceTenantId ?? ""} ${operation.name?.value ?? ""} ${JSON.stringify(variables ?? {})} ${query}` : null;
  }

  /**
   * The kept answer, once the caller is authorised to read offers as the first answer was, and
   * while the tenant's clock has not passed its `keptUntil`; undefined otherwise.
   */
  async get(key: string, ctx: RequestContext): Promise<string | undefined> {
    const kept = this.#answers.get(key);
    if (!kept) return undefined;
    try {
      await authorize(ctx, "offer");
    } catch {
      // Answered again by execution, with the refusal in the answer's errors.
      return undefined;
    }
    if (tenantScope(ctx).clock.nowMs() >= kept.keptUntil) {
      this.#answers.delete(key);
      return undefined;
    }
    return kept.body;
  }

  /**
   * Keeps an answer that came without errors, until `keptUntil` (the first of its offers' ends of
   * keeping; nothing ends for an answer whose offers are all null: they stay unknown).
   */
  set(key: string, body: string, keptUntil: number): void {
    this.#answers.set(key, { body, keptUntil });
  }
}

/** Whether every root field of the operation is `offer`, and no field of the document is `expired`. */
function onlyOffersById(document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== "query") return false;
  const rootsAreOffers = operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && selection.name.value === "offer");
  let timeDependent = false;
  visit(document, {
    Field(field) {
      if (field.name.value === "expired") timeDependent = true;
    },
  });
  return rootsAreOffers && !timeDependent;
}

/** The ids the operation's root `offer` fields read, with the request's variables. */
export function offerIdsOf(operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined): string[] {
  const value = (node: ValueNode): unknown => (node.kind === Kind.VARIABLE ? variables?.[node.name.value] : node.kind === Kind.STRING ? node.value : undefined);
  return operation.selectionSet.selections.flatMap((selection) => {
    if (selection.kind !== Kind.FIELD) return [];
    const id = selection.arguments?.find((argument) => argument.name.value === "id");
    const read = id && value(id.value);
    return typeof read === "string" ? [read] : [];
  });
}
