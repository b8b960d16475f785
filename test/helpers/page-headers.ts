import { expect } from "vitest";

/** The console's policy: every page the server sends a browser keeps each of these directives as written. */
const BASE_DIRECTIVES: Record<string, string> = {
  "default-src": "'none'",
  "script-src": "'self'",
  "img-src": "'self' data:",
  "connect-src": "'self'",
  "base-uri": "'none'",
  "form-action": "'none'",
  "frame-ancestors": "'none'",
};

/** A Content-Security-Policy header as directive → sources. */
export function policyDirectives(header: unknown): Record<string, string> {
  return Object.fromEntries(
    String(header ?? "")
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [directive, ...sources] = part.split(/\s+/);
        return [directive!, sources.join(" ")];
      }),
  );
}

/**
 * A page's headers as every page has them: the console's policy (each of its directives as
 * written, styles from this server), never framed (X-Frame-Options DENY too), never sniffed, no
 * Referer, never cached. `styleSources`: what the page's style-src holds.
 */
export function expectPageHeaders(headers: Record<string, string | string[] | undefined>, styleSources = "'self'"): void {
  expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  const policy = policyDirectives(headers["content-security-policy"]);
  for (const [directive, sources] of Object.entries(BASE_DIRECTIVES)) expect(policy[directive], directive).toBe(sources);
  expect(policy["style-src"]).toBe(styleSources);
  expect(Object.values(policy).join(" ")).not.toMatch(/unsafe-eval|\*|https?:/);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cache-control"]).toBe("no-cache");
}
