import { graphql } from "../generated";

export const AuditEventsQuery = graphql(`
  query ConsoleAuditEvents($first: Int, $after: String, $last: Int, $before: String, $tenantId: ID, $action: String) {
    auditEvents(first: $first, after: $after, last: $last, before: $before, tenantId: $tenantId, action: $action) {
      totalCount
      nodes {
        id
        action
        tenantId
        createdAt
        actor {
          type
          label
        }
        target {
          type
          id
        }
        changes
        ip
      }
      pageInfo {
        ...PageCursors
      }
    }
  }
`);
