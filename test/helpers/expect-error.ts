import { expect } from "vitest";
import type { ApiResponse } from "./client";
import { expectCatalogueError } from "./error-shape";

/**
 * Asserts a REST error exactly: the whole catalogue shape (error-shape.ts), the HTTP status, the
 * code in both variants' fields (`errors[0].code`, upper-snake `errorCode`) and, when given, the
 * field named. The body is in the message on failure, so a wrong answer shows what came back.
 */
export function expectError(response: ApiResponse, status: number, code: string, field?: string): void {
  const body = response.body ?? {};
  const actual = { status: response.status, code: body.errors?.[0]?.code, errorCode: body.errorCode, field: body.errors?.[0]?.field };
  const expected = { status, code, errorCode: code.toUpperCase(), field: field ?? actual.field };
  expect(actual, JSON.stringify(body)).toEqual(expected);
  expectCatalogueError(response, status, code);
}

/** The error body with the per-request id removed, to compare two refusals for equality. */
export function withoutRequestId(response: ApiResponse): unknown {
  const { requestId: _requestId, ...rest } = response.body ?? {};
  return { status: response.status, body: rest };
}

/** Two responses are indistinguishable to a client (apart from the request id). */
export function expectSameAnswer(a: ApiResponse, b: ApiResponse): void {
  expect(withoutRequestId(a)).toEqual(withoutRequestId(b));
}

type GraphQLBody = { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, any> }> } | undefined;

/**
 * Asserts a GraphQL error: the catalogue code in `errors[0].extensions.code`, its HTTP-equivalent
 * `extensions.statusCode` when given, and the HTTP status of the transport response (200 for a
 * resolver error, the catalogue status for a refusal before execution).
 */
export function expectGraphQLError(
  response: ApiResponse<GraphQLBody>,
  code: string,
  expected: { httpStatus?: number; statusCode?: number; field?: string } = {},
): void {
  const error = response.body?.errors?.[0];
  const actual = {
    httpStatus: response.status,
    code: error?.extensions?.code,
    ...(expected.statusCode === undefined ? {} : { statusCode: error?.extensions?.statusCode }),
    ...(expected.field === undefined ? {} : { field: error?.extensions?.field }),
  };
  const { httpStatus = 200, ...rest } = expected;
  expect(actual, JSON.stringify(response.body)).toEqual({ httpStatus, code, ...rest });
}
