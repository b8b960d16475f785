import { graphql } from "../generated";

export const WebhookSettingsQuery = graphql(`
  query ConsoleWebhookSettings {
    viewer {
      tenant {
        id
        webhookUrl
        webhookEnabled
      }
    }
  }
`);

export const UpdateWebhookSettingsMutation = graphql(`
  mutation ConsoleUpdateWebhookSettings($input: UpdateTenantConfigInput!) {
    updateTenantConfig(input: $input) {
      id
      webhookUrl
      webhookEnabled
      webhookSecret
    }
  }
`);

export const RotateWebhookSecretMutation = graphql(`
  mutation ConsoleRotateWebhookSecret {
    rotateWebhookSecret {
      webhookSecret
      previousSecretExpiresAt
    }
  }
`);

export const WebhookDeliveriesQuery = graphql(`
  query ConsoleWebhookDeliveries($first: Int, $after: String, $last: Int, $before: String, $status: WebhookDeliveryStatus) {
    webhookDeliveries(first: $first, after: $after, last: $last, before: $before, status: $status) {
      totalCount
      nodes {
        ...WebhookDeliveryRow
      }
      pageInfo {
        ...PageCursors
      }
    }
  }
`);

export const WebhookDeliveryRowFragment = graphql(`
  fragment WebhookDeliveryRow on WebhookDelivery {
    id
    eventId
    event
    orderId
    status
    attempts
    lastStatusCode
    lastError
    nextAttemptAt
    createdAt
    attemptLog {
      number
      statusCode
      durationMs
      error
      attemptedAt
    }
  }
`);

export const RedeliverWebhookMutation = graphql(`
  mutation ConsoleRedeliverWebhook($id: ID!) {
    redeliverWebhook(id: $id) {
      ...WebhookDeliveryRow
    }
  }
`);
