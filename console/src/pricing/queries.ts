import { graphql } from "../generated";

export const PricingRulesQuery = graphql(`
  query ConsolePricingRules($tenantId: ID) {
    pricingRules(first: 100, tenantId: $tenantId) {
      totalCount
      nodes {
        id
        name
        priority
        refundable
        active
        match {
          supplier
          carrier
          origin
          destination
          cabinClass
          environment
        }
        fee {
          percent
          fixedAmount
          fixedCurrency
          per
        }
      }
    }
  }
`);

export const CreatePricingRuleMutation = graphql(`
  mutation ConsoleCreatePricingRule($input: CreatePricingRuleInput!) {
    createPricingRule(input: $input) {
      id
    }
  }
`);

export const DeletePricingRuleMutation = graphql(`
  mutation ConsoleDeletePricingRule($id: ID!) {
    deletePricingRule(id: $id) {
      id
    }
  }
`);
