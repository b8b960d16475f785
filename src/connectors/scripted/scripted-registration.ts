import type { Connector } from "../../gateway/contract/connector";
import { script } from "./script";
import { ScriptedSupplier } from "./scripted-supplier";

/**
 * `scripted`: a supplier written for the tests, which steer it through its script (script.ts).
 * Made only when the test-only setting AEROGATE_TEST_CONNECTORS names it, never a supplier of
 * the product; searched only by tenants that list it. The template of docs/connectors.md: the
 * core of the contract, no capability, nothing kept in our database.
 */
export const scriptedConnector: Connector<unknown> = {
  ref: { id: "scripted", name: "Scripted test supplier" },
  testOnly: true,
  create: () => ({
    supplier: new ScriptedSupplier(script),
    capabilities: {},
    runsOnMovedClock: true,
    settlement: "wallet",
    searchedByDefault: false,
    answersKeepMs: 0,
  }),
};
