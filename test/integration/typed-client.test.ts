import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { daysAhead } from "../helpers/offers";
import { passengerFor, signedMinor } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

const JOURNEY = fileURLToPath(new URL("../typed-client/journey.ts", import.meta.url));
/** Inside the repository (git-ignored), so the program resolves openapi-fetch from node_modules. */
const WORK_DIR = fileURLToPath(new URL(`../generated/typed-client-${process.pid}/`, import.meta.url));

/** tsc over the program and the generated types, strict; every diagnostic as text. */
function compile(entry: string): string[] {
  const program = ts.createProgram([entry], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

/**
 * A client generated from the running server's /openapi.json (openapi-typescript types,
 * openapi-fetch runtime), compiled by tsc, drives search → order → ticket → wallet: a REST
 * caller can integrate from the document alone.
 */
describe("typed client generated from /openapi.json", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "20", JOB_POLL_MS: "50" } });
    tenant = await createTenant(server, { environment: "sandbox" });
    await mkdir(WORK_DIR, { recursive: true });
  });
  afterAll(async () => {
    await server?.close();
    await rm(WORK_DIR, { recursive: true, force: true });
  });

  it("compiles against the generated types and books, tickets and reads the wallet", async () => {
    const served = await call(server, "GET", "/openapi.json");
    expect(served.status).toBe(200);
    await writeFile(join(WORK_DIR, "api.d.ts"), astToString(await openapiTS(served.body)));
    const entry = join(WORK_DIR, "journey.ts");
    await copyFile(JOURNEY, entry);

    expect(compile(entry)).toEqual([]);

    const before = (await call(server, "GET", "/v1/wallet", { key: tenant.key })).body.data;
    // Typed by tsc above, inside the program; here it is only called.
    const { journey } = (await import(pathToFileURL(entry).href)) as { journey: (input: Record<string, unknown>) => Promise<any> };
    const outcome = await journey({
      baseUrl: server.url,
      apiKey: tenant.key,
      departureDate: daysAhead(45),
      passenger: (id: string) => passengerFor(id),
      deadlineMs: 15_000,
    });

    expect(outcome.ticketingStatus).toBe("in_progress");
    expect(outcome.order.status).toBe("confirmed");
    expect(outcome.order.tickets).toHaveLength(1);
    const { amount, currency } = outcome.offerTotal;
    expect(outcome.wallet.currency).toBe(currency);
    expect(signedMinor(outcome.wallet.balance, currency)).toBe(signedMinor(before.balance, currency) - signedMinor(amount, currency));
    expect(outcome.ledger[0]).toEqual({ type: "ticketing_debit", amount: `-${amount}`, orderId: outcome.order.id });
  });
});
