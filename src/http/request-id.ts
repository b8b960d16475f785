import type { IncomingMessage } from "node:http";
import { newRequestId } from "../ids";

const ACCEPTABLE = /^[A-Za-z0-9._:-]{8,64}$/;

/** A client's own `x-request-id` when it is a sane token (for tracing across systems), else a new random `req_` id. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && ACCEPTABLE.test(given) ? given : newRequestId();
}
