import type { z } from "zod";
import { appError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalogue";

/**
 * Parses input with a schema. The first problem names the field (`slices[0].origin`) and every
 * problem is listed in `reason`, so one round trip shows all that is wrong. The answer is `code`,
 * unless the first problem names its own (`params.errorCode` of a refinement, with the suggested
 * action of its own limits, `params.action`, when it has one). `name` spells a problem's path as
 * the field's name.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, code: ErrorCode = "validation_failed", name: (path: ReadonlyArray<PropertyKey>) => string = fieldPath): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const firstIssue = parsed.error.issues[0];
  const ownCode = firstIssue?.code === "custom" ? (firstIssue.params?.errorCode as ErrorCode | undefined) : undefined;
  const ownAction = firstIssue?.code === "custom" ? (firstIssue.params?.action as string | undefined) : undefined;
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
    const field = name(path);
    // zod's own words name the key again ("Unrecognized key: …"); a schema may give its own (a list's query).
    const message = issue.code === "unrecognized_keys" && issue.message.startsWith("Unrecognized key") ? "is not a known field" : issue.message;
    return { field, message };
  });
  const first = problems[0];
  const describe = (problem: { field: string; message: string }) => (problem.field ? `${problem.field}: ${problem.message}` : problem.message);
  throw appError(ownCode ?? code, {
    ...(first?.field ? { field: first.field } : {}),
    message: first ? describe(first) : undefined,
    reason: problems.map(describe).join("; "),
    ...(ownAction === undefined ? {} : { action: ownAction }),
  });
}

/**
 * Checks a domain command against its rules: a schema of the command's own shape, made of the
 * same value rules the transports' wire schemas state, so a rule is written once whichever
 * surface a client uses. Returns the command as its rules read it (trimmed, upper-cased…). A
 * problem is parseInput's error, naming the field as the API documents spell it
 * (`passengers[0].given_name` for the command's `passengers[0].givenName`), the words every
 * domain rule speaks; GraphQL renames them to its own (graphql/field-names.ts).
 */
export function checkCommand<S extends z.ZodType>(schema: S, command: z.input<S>, code: ErrorCode = "validation_failed"): z.output<S> {
  return parseInput(schema, command, code, (path) => fieldPath(path.map((part) => (typeof part === "string" ? snakeCase(part) : part))));
}

/** `issuingCountryCode` → `issuing_country_code`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `["slices", 0, "origin"]` → `slices[0].origin`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), "");
}
