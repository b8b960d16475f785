import { Writable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logAnswer } from "../../src/http/access-log";

/** The access-log lines `logAnswer` writes for one answer, at a logger of `level`. */
function linesFor(level: string, route: string, status: number): Array<{ level: number; route: string; status: number }> {
  const lines: string[] = [];
  const log = pino({ level }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
  logAnswer({ log, routeOptions: { url: route }, method: "GET" } as unknown as FastifyRequest, { statusCode: status, elapsedTime: 1.23 } as unknown as FastifyReply);
  return lines.map((line) => JSON.parse(line));
}

describe("access log", () => {
  it("logs an API answer at info", () => {
    expect(linesFor("info", "/v1/wallet", 200)).toEqual([expect.objectContaining({ level: 30, route: "/v1/wallet", status: 200 })]);
  });

  it("logs health probes at debug: a load balancer's probe every second stays out of an info log", () => {
    for (const route of ["/healthz", "/readyz"]) {
      expect(linesFor("info", route, 200)).toEqual([]);
      expect(linesFor("debug", route, 200)).toEqual([expect.objectContaining({ level: 20, route, status: 200 })]);
      // Not ready (a database outage) is a refusal, not a failure: still debug.
      expect(linesFor("info", route, 503)).toEqual([]);
    }
  });

  it("a probe that fails is an error, whatever the level", () => {
    expect(linesFor("error", "/readyz", 500)).toEqual([expect.objectContaining({ level: 50, route: "/readyz", status: 500 })]);
  });
});
