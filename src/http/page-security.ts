import type { FastifyReply } from "fastify";

/**
 * The policy of every page this server sends a browser (the console, the GraphQL playground,
 * /docs): scripts and styles only from this server's own files (no inline script, so an injected
 * string cannot run), requests only to this origin (the API and graphql-ws), no plugins, no
 * `<base>` or form posts elsewhere, and no framing anywhere (no clickjacking of buttons that act
 * with the person's key). A page adds only what its parts need and is no risk (`extra`).
 */
const BASE_POLICY: Readonly<Record<string, readonly string[]>> = {
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "img-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
  "frame-ancestors": ["'none'"],
};

/** The base policy with `extra` sources added to its directives (or new directives). */
export function contentSecurityPolicy(extra: Readonly<Record<string, readonly string[]>> = {}): string {
  const directives = { ...BASE_POLICY };
  for (const [directive, sources] of Object.entries(extra)) directives[directive] = [...(directives[directive] ?? []), ...sources];
  return Object.entries(directives)
    .map(([directive, sources]) => `${directive} ${sources.join(" ")}`)
    .join("; ");
}

/**
 * Sends an HTML page with its policy and the headers every page has: never cached (a new build is
 * seen at once), never framed (X-Frame-Options for browsers older than frame-ancestors), never
 * sniffed as another type, and no Referer to where its links lead.
 */
export function sendPage(reply: FastifyReply, html: string | Buffer, policy: string): FastifyReply {
  return reply
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("content-security-policy", policy)
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .send(html);
}
