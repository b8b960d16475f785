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
  query ConsoleWebhookDeliveries($first: Int, $after: String, $last: Int, $before: String, $status: WebhookDeliveryStatus, $endpointId: ID) {
    webhookDeliveries(first: $first, after: $after, last: $last, before: $before, status: $status, endpointId: $endpointId) {
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
    endpointId
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

export const WebhookEndpointRowFragment = graphql(`
  fragment WebhookEndpointRow on WebhookEndpoint {
    id
    url
    enabledEvents
    description
    enabled
    isDefault
    createdAt
  }
`);

/** At most 17 (the default one and 16 more): one page holds them all. */
export const WebhookEndpointsQuery = graphql(`
  query ConsoleWebhookEndpoints {
    webhookEndpoints(first: 20) {
      nodes {
        ...WebhookEndpointRow
      }
    }
  }
`);

export const CreateWebhookEndpointMutation = graphql(`
  mutation ConsoleCreateWebhookEndpoint($input: CreateWebhookEndpointInput!, $idempotencyKey: String) {
    createWebhookEndpoint(input: $input, idempotencyKey: $idempotencyKey) {
      ...WebhookEndpointRow
      secret
    }
  }
`);

export const UpdateWebhookEndpointMutation = graphql(`
  mutation ConsoleUpdateWebhookEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) {
      ...WebhookEndpointRow
    }
  }
`);

export const RotateWebhookEndpointSecretMutation = graphql(`
  mutation ConsoleRotateWebhookEndpointSecret($id: ID!) {
    rotateWebhookEndpointSecret(id: $id) {
      endpointId
      secret
      previousSecretExpiresAt
    }
  }
`);

export const PingWebhookEndpointMutation = graphql(`
  mutation ConsolePingWebhookEndpoint($id: ID!, $idempotencyKey: String) {
    pingWebhookEndpoint(id: $id, idempotencyKey: $idempotencyKey) {
      ...WebhookDeliveryRow
    }
  }
`);

export const DeleteWebhookEndpointMutation = graphql(`
  mutation ConsoleDeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id) {
      id
    }
  }
`);
