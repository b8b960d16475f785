import { expect } from "vitest";
import { errorCatalogue } from "../../src/errors/catalogue";
import type { ApiResponse } from "./client";

const catalogueCodes = Object.keys(errorCatalogue);

/**
 * Asserts a REST error response carries the whole catalogue shape (docs/errors.md#the-rest-error-body): both
 * variants' fields, a catalogued code consistent with the HTTP status, and the request id of
 * the `x-request-id` header. Pass `code` to pin the exact code.
 */
export function expectCatalogueError(response: ApiResponse, status?: number, code?: string): void {
  const body = response.body;
  const context = `${response.status} ${typeof body === "string" ? body.slice(0, 300) : JSON.stringify(body)?.slice(0, 300)}`;
  if (status !== undefined) expect(response.status, context).toBe(status);
  expect(response.status, context).toBeGreaterThanOrEqual(400);
  expect(typeof body, context).toBe("object");
  const requestId = response.headers.get("x-request-id");
  expect(requestId, "x-request-id header").toBeTruthy();
  expect(body.errors, context).toBeInstanceOf(Array);
  expect(body.errors.length, context).toBeGreaterThanOrEqual(1);
  const first = body.errors[0];
  expect(catalogueCodes, context).toContain(first.code);
  if (code !== undefined) expect(first.code, context).toBe(code);
  expect(typeof first.message).toBe("string");
  expect(first.message.length).toBeGreaterThan(0);
  expect(body).toMatchObject({
    success: false,
    statusCode: response.status,
    errorCode: first.code.toUpperCase(),
    message: first.message,
    fault: response.status >= 500 ? "server" : "client",
    retryable: expect.any(Boolean),
    suggestedAction: expect.any(String),
    reason: expect.any(String),
    apiVersion: "1.0.0",
    requestId,
  });
  expect(body.errorCode).toMatch(/^[A-Z0-9]+(_[A-Z0-9]+)*$/);
  expect(errorCatalogue[first.code as keyof typeof errorCatalogue].status, context).toBe(response.status);
  expect(Object.hasOwn(body, "environment"), "environment field present").toBe(true);
  expect([null, "sandbox", "live"]).toContain(body.environment);
}
