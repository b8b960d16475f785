import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The documentation holds together: every relative link and anchor in README.md, docs/*.md and
 * bench/README.md resolves, every page under docs/ is reachable from the README, the README
 * stays a front door (at most 300 lines), and code comments cite these docs (anchors that exist),
 * never documents outside the repository.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const README = join(root, "README.md");
const pages = [README, join(root, "bench/README.md"), ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => join(root, "docs", name))].filter((page) => existsSync(page));

/** The text outside fenced code blocks, line by line (a `#` in a shell example is no heading). */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** The link targets of a page's prose (inline links and images), code spans left out. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const withoutCode = line.replace(/`[^`]*`/g, "");
    for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
  }
  return targets;
}

/** The project's own code and schema files (generated ones and this test, with its broken examples, left out), whose comments may cite the docs. */
function codeFiles(): string[] {
  const self = fileURLToPath(import.meta.url);
  const files: string[] = [join(root, "schema.graphql")];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!["generated", "node_modules", "screenshots"].includes(entry.name)) walk(path);
      } else if (/\.(ts|tsx|mjs|js|prisma)$/.test(entry.name) && path !== self) files.push(path);
    }
  };
  for (const dir of ["src", "test", "console/src", "prisma", "bench", "scripts"]) walk(join(root, dir));
  return files;
}

/** What is wrong with one relative link from `page`, or null when it resolves. */
function brokenLink(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: …: not ours to check
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `${target}: no file ${relative(root, file)}`;
  if (anchor === undefined || anchor === "") return null;
  if (!file.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
  return anchorsOf(readFileSync(file, "utf8")).has(anchor) ? null : `${target}: no heading #${anchor} in ${relative(root, file)}`;
}

describe("documentation links", () => {
  it("finds links and anchors as GitHub renders them", () => {
    const page = "# Holds and payments\n\n## `POST /v1/air/payments`\n\n```sh\n# not a heading\n```\n\nSee [holds](#holds-and-payments), `[not](a-link.md)` and ![shot](docs/x.png).\n## Holds and payments\n";
    expect([...anchorsOf(page)]).toEqual(["holds-and-payments", "post-v1airpayments", "holds-and-payments-1"]);
    expect(linkTargets(page)).toEqual(["#holds-and-payments", "docs/x.png"]);
    expect(headingSlug("Order changes (REST and GraphQL)")).toBe("order-changes-rest-and-graphql");
  });

  it("catches a link to a missing page or heading", () => {
    expect(brokenLink(README, "docs/no-such-page.md")).toMatch(/no file docs\/no-such-page\.md/);
    expect(brokenLink(README, "#no-such-heading")).toMatch(/no heading #no-such-heading in README\.md/);
  });

  it.each(pages.map((page) => [relative(root, page), page]))("every relative link and anchor in %s resolves", (_name, page) => {
    const broken = linkTargets(readFileSync(page, "utf8"))
      .map((target) => brokenLink(page, target))
      .filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  it("reaches every docs page from the README", () => {
    const reached = new Set<string>([README]);
    const queue = [README];
    while (queue.length > 0) {
      const page = queue.pop()!;
      for (const target of linkTargets(readFileSync(page, "utf8"))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const path = target.split("#", 1)[0]!;
        if (!path.endsWith(".md")) continue;
        const file = resolve(dirname(page), decodeURIComponent(path));
        if (existsSync(file) && !reached.has(file)) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    const unreached = pages.filter((page) => !reached.has(page)).map((page) => relative(root, page));
    expect(unreached).toEqual([]);
  });

  it("has code that cites the repository's own docs: every docs/<page>.md#<anchor> resolves, and no outside document is cited", () => {
    const broken: string[] = [];
    const outside: string[] = [];
    // Built from parts, so this file does not cite what it looks for.
    const outsideCitation = new RegExp(`\\b(?:(?:servicing|decisions|interface|gateway) ${"§"}|(?<!docs\\/)(?:servicing|decisions|interface|gateway)\\.md\\b|[Ii]ssue \\d)`);
    for (const file of codeFiles()) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/\bdocs\/([a-z-]+\.md)(?:#([a-z0-9-]+))?/g)) {
        const problem = brokenLink(README, `docs/${match[1]}${match[2] ? `#${match[2]}` : ""}`);
        if (problem) broken.push(`${relative(root, file)}: ${problem}`);
      }
      text.split("\n").forEach((line, index) => {
        if (outsideCitation.test(line)) outside.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(broken).toEqual([]);
    expect(outside).toEqual([]);
  });

  it("keeps the README a front door: at most 300 lines", () => {
    expect(readFileSync(README, "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });
});
