import type { AccountWebhooks } from "../../gateway/contract/connector";
import { DuffelApiError, DuffelClient } from "./duffel-client";
import type { DuffelSettings } from "./connected-accounts";
import { catalogueError } from "./duffel-errors";
import { DUFFEL_WEBHOOK_EVENTS } from "./duffel-webhooks";

/** A webhook as Duffel lists it (`GET /air/webhooks`); its secret is given only when it is created. */
interface DuffelWebhook {
  id: string;
  url: string;
  created_at: string;
}

/** Webhooks Duffel lists per page (its maximum). */
const PAGE_LIMIT = 200;

/**
 * A connected account's webhooks at Duffel (`/air/webhooks`), made with the account's own token:
 * Duffel gives one secret per webhook, shown once, when it is created.
 */
export function duffelAccountWebhooks(settings: DuffelSettings): AccountWebhooks {
  const clientOf = (token: string) => new DuffelClient({ baseUrl: settings.baseUrl, accessToken: token, timeoutMs: settings.timeoutMs });
  const removeOne = (client: DuffelClient, id: string, deadlineMs: number) =>
    client.delete(`/air/webhooks/${encodeURIComponent(id)}`, { deadlineMs }).catch((error: unknown) => {
      if (!(error instanceof DuffelApiError && error.status === 404)) throw error;
    });
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
        const created = await clientOf(token).post<DuffelWebhook & { secret: string }>("/air/webhooks", { body: { url, events: DUFFEL_WEBHOOK_EVENTS } });
        return { id: created.id, secret: created.secret };
      }),
    removeAt: (token, url, keep) =>
      inCatalogue(async () => {
        const client = clientOf(token);
        const deadlineMs = client.deadlineFromNow();
        const atUrl: DuffelWebhook[] = [];
        let after: string | undefined;
        do {
          const page = await client.page<DuffelWebhook>("/air/webhooks", { query: { limit: PAGE_LIMIT, after }, deadlineMs });
          atUrl.push(...page.data.filter((webhook) => webhook.url === url));
          after = page.meta.after ?? undefined;
        } while (after);
        // A registration racing this one keeps what it created after `keep` (and, gone already, `keep` was replaced by a later one).
        const kept = keep === undefined ? null : atUrl.find((webhook) => webhook.id === keep);
        if (kept === undefined) return;
        const keptSince = kept === null ? Infinity : Date.parse(kept.created_at);
        for (const webhook of atUrl) if (webhook.id !== keep && Date.parse(webhook.created_at) <= keptSince) await removeOne(client, webhook.id, deadlineMs);
      }),
    remove: (token, id) =>
      inCatalogue(async () => {
        const client = clientOf(token);
        await removeOne(client, id, client.deadlineFromNow());
      }),
  };
}
