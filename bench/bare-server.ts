import Fastify from "fastify";

/**
 * The baseline: a bare Fastify 5 app with one JSON route and nothing else (no logger, no hooks).
 * Started by bench/run.ts in its own process, exactly like the real server, so the ratio of a
 * scenario's req/s to this route's measures what our stack costs on top of the framework.
 */
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? "127.0.0.1";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ ok: true }));

await app.listen({ port, host });

const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
