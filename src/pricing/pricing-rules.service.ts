import type { ChangeOrigin } from "../audit/change-origin";
import { createdFields, deletedFields, fieldChanges, recordAudit } from "../audit/audit-log";
import { clock } from "../clock";
import type { Database } from "../db/database";
import { appError } from "../errors/app-error";
import type { PubSub } from "../events/pubsub";
import { newId } from "../ids";
import type { AirportIndex } from "../locations/airport-index";
import type { CursorCodec } from "../pagination/cursor";
import { filteredListName } from "../pagination/list-name";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import { VersionedCache } from "../versioned-cache";
import type { PricingRuleDraft, PricingRulePatch } from "./pricing-rule.inputs";
import { pricingRuleFrom, type PricingRule, type RuleMatch } from "./pricing-rule";
import { pricingRuleFields } from "./pricing-rule-fields";

/** A backstop should an invalidation be lost: rules are read again at least this often. */
const MAX_AGE_MS = 60_000;

/**
 * The owner's pricing rules (docs/running-the-platform.md#fees): kept, checked, audited, and read
 * by every search through a per-process cache that every change clears in every process before it
 * answers (the `pricing` channel), so a search made after a change has answered prices with it.
 */
export class PricingRuleService {
  /** The active rules that can apply to a tenant (its own and the platform-wide ones), by tenant id. */
  private readonly cache = new VersionedCache<string, PricingRule[]>(MAX_AGE_MS, 10_000);

  constructor(
    private readonly db: Database,
    private readonly pubsub: PubSub,
    private readonly cursors: CursorCodec,
    /** What a rule's match may name: the gateway's suppliers and the airports. */
    private readonly known: { supplierIds: readonly string[]; airports: AirportIndex },
  ) {
    pubsub.subscribe("pricing", () => this.cache.clear());
    pubsub.onResync(() => this.cache.clear());
  }

  /**
   * Makes a rule. 422 `invalid_field_value` naming the field for a supplier, airport, city or
   * country the platform does not know, or a tenant that does not exist (or was deleted); nothing
   * is stored then.
   */
  async create(draft: PricingRuleDraft, by: ChangeOrigin): Promise<PricingRule> {
    this.checkMatch(draft.match);
    const now = clock.now();
    const id = newId("prr", now.getTime());
    const rule = await this.db.prisma.$transaction(async (tx) => {
      if (draft.tenantId !== null) {
        const tenant = await tx.tenant.findUnique({ where: { id: draft.tenantId }, select: { status: true } });
        if (!tenant || tenant.status === "deleted") throw appError("invalid_field_value", { field: "tenant_id", message: `tenant_id: no tenant ${draft.tenantId}` });
      }
      const row = await tx.pricingRule.create({ data: { id, ...rowFields(draft), tenantId: draft.tenantId, createdAt: now, updatedAt: now } });
      const created = pricingRuleFrom(row);
      await recordAudit(tx, this.db, by, { action: "pricing_rule.created", tenantId: created.tenantId, target: { type: "pricing_rule", id }, changes: createdFields(pricingRuleFields(created)) });
      return created;
    });
    await this.changed();
    return rule;
  }

  /** Rules newest first, all of them or those of one tenant (`tenantId`; "null": the platform-wide ones). */
  list(request: PageRequest, tenantId?: string | null): Promise<Page<PricingRule>> {
    const where = tenantId === undefined ? {} : { tenantId };
    return paginate({
      list: filteredListName("pricing-rules", [tenantId]),
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.pricingRule.count({ where }),
      fetch: async (query) => (await this.db.prisma.pricingRule.findMany({ ...query, where: { AND: [where, query.where] } })).map(pricingRuleFrom),
    });
  }

  /** The rule; 404 `not_found` for an unknown id. */
  async get(ruleId: string): Promise<PricingRule> {
    const row = await this.db.prisma.pricingRule.findUnique({ where: { id: ruleId } });
    if (!row) throw appError("not_found");
    return pricingRuleFrom(row);
  }

  /**
   * Changes the fields given (`match` and `fee` whole). Offers already made keep the fee they were
   * made with, and orders theirs: only searches after the change price with it. 404 `not_found`;
   * 422 `invalid_field_value` as `create`.
   */
  async update(ruleId: string, patch: PricingRulePatch, by: ChangeOrigin): Promise<PricingRule> {
    if (patch.match) this.checkMatch(patch.match);
    const rule = await this.db.prisma.$transaction(async (tx) => {
      const row = await tx.pricingRule.findUnique({ where: { id: ruleId } });
      if (!row) throw appError("not_found");
      const before = pricingRuleFrom(row);
      const updated = pricingRuleFrom(await tx.pricingRule.update({ where: { id: ruleId }, data: { ...rowFields({ ...before, ...patch }), updatedAt: clock.now() } }));
      const changes = fieldChanges(pricingRuleFields(before), pricingRuleFields(updated));
      await recordAudit(tx, this.db, by, { action: "pricing_rule.updated", tenantId: updated.tenantId, target: { type: "pricing_rule", id: ruleId }, changes });
      return updated;
    });
    await this.changed();
    return rule;
  }

  /** Removes the rule and returns it as it was; offers and orders priced with it keep their fee. 404 `not_found`. */
  async delete(ruleId: string, by: ChangeOrigin): Promise<PricingRule> {
    const rule = await this.db.prisma.$transaction(async (tx) => {
      const row = await tx.pricingRule.findUnique({ where: { id: ruleId } });
      if (!row) throw appError("not_found");
      const deleted = pricingRuleFrom(row);
      const { count } = await tx.pricingRule.deleteMany({ where: { id: ruleId } });
      if (count === 0) throw appError("not_found");
      await recordAudit(tx, this.db, by, { action: "pricing_rule.deleted", tenantId: deleted.tenantId, target: { type: "pricing_rule", id: ruleId }, changes: deletedFields(pricingRuleFields(deleted)) });
      return deleted;
    });
    await this.changed();
    return rule;
  }

  /** The active rules that can apply to the tenant's offers: its own and the platform-wide ones. */
  async rulesFor(tenantId: string): Promise<PricingRule[]> {
    const rules = await this.cache.get(tenantId, async () =>
      (await this.db.prisma.pricingRule.findMany({ where: { active: true, OR: [{ tenantId }, { tenantId: null }] } })).map(pricingRuleFrom),
    );
    return rules ?? [];
  }

  /** Every process drops its rules, and this returns once they have. */
  private changed(): Promise<void> {
    return this.pubsub.publish("pricing", {});
  }

  /** A match names only suppliers, airports, cities and countries the platform has (422 `invalid_field_value` naming the field). */
  private checkMatch(match: RuleMatch): void {
    if (match.supplier !== undefined && !this.known.supplierIds.includes(match.supplier)) {
      throw appError("invalid_field_value", { field: "match.supplier", message: `match.supplier: ${match.supplier} is not a supplier (${this.known.supplierIds.join(", ")})` });
    }
    for (const field of ["origin", "destination"] as const) {
      const code = match[field];
      if (code !== undefined && !this.isKnownPlace(code)) {
        throw appError("invalid_field_value", { field: `match.${field}`, message: `match.${field}: ${code} is not a known airport, city or country code` });
      }
    }
  }

  private isKnownPlace(code: string): boolean {
    if (code.length === 2) return this.known.airports.airports.some((airport) => airport.iataCountryCode === code);
    return this.known.airports.isKnownCode(code);
  }
}

/** The rule's stored columns but its id, tenant and dates. */
function rowFields(rule: Omit<PricingRuleDraft, "tenantId">) {
  return {
    name: rule.name,
    match: rule.match as object,
    feePercent: rule.fee.percent,
    feeFixedAmount: rule.fee.fixedAmount,
    feeFixedCurrency: rule.fee.fixedCurrency,
    feePer: rule.fee.per,
    priority: rule.priority,
    refundable: rule.refundable,
    active: rule.active,
  };
}
