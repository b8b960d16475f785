// A process that books one Duffel offer through the server's own services, as a request would,
// and prints the booking: the crash suite runs it with AEROGATE_TEST_PAUSE_AT=after_duffel_order
// and kills it between Duffel's answer and our commit. DUFFEL_BOOKING holds the tenant id and the
// booking request as JSON.
import { loadConfig } from "../../src/config";
import { openDatabase } from "../../src/db/database";
import { LocalPubSub, PostgresPubSub, type PubSub } from "../../src/events/pubsub";
import { createLogger } from "../../src/logger";
import { createServices } from "../../src/services";
import { scopeOf } from "../../src/tenancy/tenant-scope";

const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const db = await openDatabase(config.DATABASE_URL);
const pubsub: PubSub = db.provider === "postgresql" ? await PostgresPubSub.connect(config.DATABASE_URL, log) : new LocalPubSub();
const services = await createServices(config, db, pubsub, log);
const { tenantId, request } = JSON.parse(process.env.DUFFEL_BOOKING ?? "{}");
const tenant = await db.prisma.tenant.findUniqueOrThrow({ where: { id: tenantId } });
const booking = await services.duffelBookings.book(scopeOf(tenant, { actingAsOwner: false, mayReadWallet: true }), request);
process.stdout.write(`DUFFEL_BOOKED ${JSON.stringify(booking)}\n`);
await pubsub.close();
await db.close();
