import { pino, type Logger } from "pino";

export type { Logger };

/**
 * JSON logs on stdout. Credentials never reach a log line: the redaction list covers every
 * header that can carry a key, wherever a request object is logged.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "aerogate" },
    redact: {
      paths: ["req.headers.authorization", "req.headers[\"x-api-key\"]", "headers.authorization", "headers[\"x-api-key\"]"],
      censor: "[redacted]",
    },
  });
}
