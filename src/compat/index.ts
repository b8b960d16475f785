import type { FastifyInstance } from "fastify";
import { DUFFEL_MOUNT, registerDuffelRoutes } from "./duffel/routes";

/**
 * APIs that imitate another provider's, so an integration written for it works by changing its
 * base URL. Each is a transport over the same domain as /v1 and GraphQL, under its own mount.
 */
export const COMPATIBLE_API_MOUNTS = [DUFFEL_MOUNT];

export async function registerCompatibleApis(app: FastifyInstance): Promise<void> {
  await registerDuffelRoutes(app);
}
