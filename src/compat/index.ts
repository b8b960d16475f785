import type { FastifyInstance } from "fastify";
import type { Services } from "../services";
import { DUFFEL_MOUNT, registerDuffelRoutes } from "./duffel/routes";
import { duffelWebhookFormat } from "./duffel/webhook-format";

/**
 * APIs that imitate another provider's, so an integration written for it works by changing its
 * base URL. Each is a transport over the same domain as /v1 and GraphQL, under its own mount, and
 * may deliver webhooks in its provider's format too.
 */
export const COMPATIBLE_API_MOUNTS = [DUFFEL_MOUNT];

export async function registerCompatibleApis(app: FastifyInstance, services: Pick<Services, "webhookFormats">): Promise<void> {
  services.webhookFormats.register(duffelWebhookFormat);
  await registerDuffelRoutes(app);
}
