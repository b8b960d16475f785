import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONNECTOR_IDS } from "../../src/composition/connectors";

/**
 * The gateway's third rule (docs/connectors.md#the-rules), which imports cannot show: no code
 * outside a connector's folder compares a supplier id. What a supplier does is its connector's
 * declaration (its capabilities), never a test of its id elsewhere. Outside src/connectors/ and
 * the composition root (src/composition/, src/services.ts), no source file compares a string with
 * a connector's id, switches on one, looks one up in a set or map, or keys a table by one.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const src = join(root, "src");
/** Where a supplier's id may be named: its connector's folder, the composition root, and the generated clients (not ours). */
const ALLOWED = ["src/connectors/", "src/composition/", "src/services.ts", "src/generated/"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The ways code compares an id `id`, each as a pattern over one line. */
function comparisons(id: string): RegExp[] {
  const literal = `["'\`]${escape(id)}["'\`]`;
  return [
    new RegExp(`[!=]==?\\s*${literal}`),
    new RegExp(`${literal}\\s*[!=]==?`),
    new RegExp(`\\bcase\\s+${literal}\\s*:`),
    new RegExp(`\\.(includes|has|get|startsWith|endsWith|indexOf)\\(\\s*${literal}`),
    new RegExp(`[{,]\\s*${escape(id)}\\s*:`),
    new RegExp(`[{,]\\s*${literal}\\s*:`),
  ];
}

describe("supplier ids outside the connectors", () => {
  const files = sources(src).filter((path) => !ALLOWED.some((allowed) => relative(root, path).startsWith(allowed)));

  it("has connectors to check and files to check them in", () => {
    expect(CONNECTOR_IDS.length).toBeGreaterThanOrEqual(4);
    expect(files.length).toBeGreaterThan(100);
  });

  it("no code outside a connector's folder compares a supplier id, switches on one, or keys a table by one", () => {
    const found: string[] = [];
    for (const path of files) {
      readFileSync(path, "utf8")
        .split("\n")
        .forEach((line, index) => {
          const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
          for (const id of CONNECTOR_IDS) {
            if (comparisons(id).some((pattern) => pattern.test(code))) found.push(`${relative(root, path)}:${index + 1}: ${line.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it("would see the comparisons it forbids", () => {
    const seen = (line: string) => CONNECTOR_IDS.some((id) => comparisons(id).some((pattern) => pattern.test(line)));
    expect(seen(`return supplierId === "simulated_lcc" ? LOW_COST : NETWORK;`)).toBe(true);
    expect(seen(`if ("duffel" !== offer.supplier.id) return;`)).toBe(true);
    expect(seen(`const LIMITED = { simulated_lcc: new Set(), duffel: new Set() };`)).toBe(true);
    expect(seen(`case "scripted":`)).toBe(true);
    expect(seen(`if (ids.includes("duffel")) return;`)).toBe(true);
    expect(seen(`const name = supplier.name;`)).toBe(false);
  });
});

/**
 * Where a supplier may be named at all (`grep -rniE "duffel|simulated_lcc" src`): its connector's
 * folder, the composition root, configuration and the generated clients, plus one declared
 * exception: src/compat/, the transports that imitate another provider's public API (Duffel's) for
 * integrators switching to us. They name that API, never compare a supplier id (the test above),
 * and book through the same domain as /v1, whichever supplier sells the offer.
 */
const MAY_NAME_A_SUPPLIER = ["src/connectors/", "src/composition/", "src/config.ts", "src/generated/", "src/compat/"];

describe("suppliers' names outside the connectors", () => {
  it("appear only in the connectors, the composition root, configuration and the compatible APIs", () => {
    const names = /duffel|simulated_lcc/i;
    const found = sources(src)
      .map((path) => relative(root, path))
      .filter((path) => !MAY_NAME_A_SUPPLIER.some((allowed) => path.startsWith(allowed)))
      .filter((path) => names.test(readFileSync(join(root, path), "utf8")));
    expect(found).toEqual([]);
  });
});
