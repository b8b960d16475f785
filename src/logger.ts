import { pino, type Logger } from "pino";

export type { Logger };

/** Takes the errors it recognises (returning true) to report them its own way. */
export interface ErrorAbsorber {
  absorb(error: unknown): boolean;
}

/** Per root logger (its children share it): who takes the errors not to be logged one by one. */
const absorbers = new WeakMap<Logger, { current: ErrorAbsorber | null }>();

/**
 * JSON logs on stdout. Credentials never reach a log line: the redaction list covers every
 * header that can carry a key, wherever a request object is logged, and a database URL that an
 * error may quote is written without its user and password (`withoutCredentials`).
 *
 * A line whose `err` the logger's absorber takes (`absorbErrors`: the database's availability,
 * for a database that cannot be reached or has no room) is not written: during an outage every
 * job, delivery and flush fails alike, and the availability logs the outage once and sums up
 * the rest each second instead of a line and a stack for each.
 */
export function createLogger(level: string): Logger {
  const route: { current: ErrorAbsorber | null } = { current: null };
  const logger = pino({
    level,
    base: { service: "aerogate" },
    redact: {
      paths: ["req.headers.authorization", "req.headers[\"x-api-key\"]", "headers.authorization", "headers[\"x-api-key\"]"],
      censor: "[redacted]",
    },
    hooks: {
      streamWrite: withoutCredentials,
      logMethod(args, method) {
        const [fields] = args as unknown[];
        if (route.current && typeof fields === "object" && fields !== null && "err" in fields && route.current.absorb((fields as { err: unknown }).err)) return;
        method.apply(this, args);
      },
    },
  });
  absorbers.set(logger, route);
  return logger;
}

/** A URL's `user:password@` part (postgresql://, or any scheme), where `text` holds one. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^@\s/"]*@/gi;

/**
 * `text` with the user and password of every URL in it replaced by `[redacted]`, for anything
 * that may quote a database URL (a line of the log, a message printed when the start fails).
 */
export function withoutCredentials(text: string): string {
  return text.includes("@") ? text.replace(URL_CREDENTIALS, "$1[redacted]@") : text;
}

/** From now on, `log` (made by createLogger) and its children hand the errors `absorber` takes to it instead of writing them. */
export function absorbErrors(log: Logger, absorber: ErrorAbsorber): void {
  const route = absorbers.get(log);
  if (route) route.current = absorber;
}
