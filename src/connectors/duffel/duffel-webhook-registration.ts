import type { AccountWebhooks } from "../../gateway/contract/connector";
import { DuffelClient } from "./duffel-client";
import type { DuffelSettings } from "./connected-accounts";
import { DuffelConnector } from "./duffel-connector";
import { catalogueError } from "./duffel-errors";
import { DUFFEL_WEBHOOK_EVENTS } from "./duffel-webhooks";

/**
 * A connected account's webhooks at Duffel (`/air/webhooks`), made with the account's own token:
 * Duffel gives one secret per webhook, shown once, when it is created.
 */
export function duffelAccountWebhooks(settings: DuffelSettings): AccountWebhooks {
  const clientOf = (token: string) => new DuffelClient({ baseUrl: settings.baseUrl, accessToken: token, timeoutMs: settings.timeoutMs });
  const connectorOf = (token: string) => new DuffelConnector(clientOf(token));
  const inCatalogue = async <T>(call: () => Promise<T>) => {
    try {
      return await call();
    } catch (error) {
      throw catalogueError(error);
    }
  };
  return {
    create: (token, url) =>
      inCatalogue(async () => {
        const created = await connectorOf(token).createWebhook(url, DUFFEL_WEBHOOK_EVENTS);
        return { id: created.id, secret: created.secret };
      }),
    removeAt: (token, url, keep) =>
      inCatalogue(async () => {
        const client = clientOf(token);
        const connector = new DuffelConnector(client);
        // One deadline for the listing and the removals together.
        const deadlineMs = client.deadlineFromNow();
        const atUrl = (await connector.listWebhooks({ deadlineMs })).filter((webhook) => webhook.url === url);
        // A registration racing this one keeps what it created after `keep` (and, gone already, `keep` was replaced by a later one).
        const kept = keep === undefined ? null : atUrl.find((webhook) => webhook.id === keep);
        if (kept === undefined) return;
        const keptSince = kept === null ? Infinity : Date.parse(kept.created_at);
        for (const webhook of atUrl) if (webhook.id !== keep && Date.parse(webhook.created_at) <= keptSince) await connector.deleteWebhook(webhook.id, { deadlineMs });
      }),
    remove: (token, id) => inCatalogue(() => connectorOf(token).deleteWebhook(id)),
  };
}
