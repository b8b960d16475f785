import type { RestRoute } from "./route";
import { tenantConfigRoutes } from "./tenant-config.routes";
import { tenantRoutes } from "./tenants.routes";

/** Every `/v1` route: registered by the app and described by /openapi.json from this one list. */
export const restRoutes: ReadonlyArray<RestRoute<any, any>> = [...tenantRoutes, ...tenantConfigRoutes];
