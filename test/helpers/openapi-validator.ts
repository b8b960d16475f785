import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../src/rest/openapi";
import { restRoutes } from "../../src/rest/routes";

/**
 * Checks a `/v1` answer against /openapi.json with a JSON Schema 2020-12 validator (OpenAPI 3.1
 * schemas are JSON Schema). The document is built once per process from the same route table
 * the server serves; each response schema is compiled the first time it is needed.
 */
const DOCUMENT_ID = "openapi.json";
const document = openApiDocument(restRoutes);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, DOCUMENT_ID);

interface DescribedOperation {
  method: string;
  pattern: RegExp;
  /** JSON pointer of the operation's `responses`. */
  responses: string;
  statuses: Set<string>;
}

const pointerSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** Literal paths before templated ones, so `/v1/tenant` never reads as `/v1/tenants/{id}`'s kin. */
const operations: DescribedOperation[] = Object.entries(document.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, described]) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      responses: `#/paths/${pointerSegment(path)}/${method}/responses`,
      statuses: new Set(Object.keys((described as { responses: Record<string, unknown> }).responses)),
      templated: path.includes("{"),
    })),
  )
  .sort((a, b) => Number(a.templated) - Number(b.templated));

const validators = new Map<string, ValidateFunction>();

function validatorFor(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

/**
 * Why `body` (status `status`, answering `method` `url`) is not what /openapi.json describes,
 * or null when it is (or when `url` is not under /v1). A method and path no operation serves is checked against
 * `components.responses.UnmatchedRoute`.
 */
export function undescribedResponse(method: string, url: string, status: number, body: unknown, contentType: string | null = "application/json"): string | null {
  if (method === "HEAD") return null;
  const path = routedPath(url);
  if (!path.startsWith("/v1")) return null;
  const described = operations.find((candidate) => candidate.method === method && candidate.pattern.test(path));
  let pointer = "#/components/responses/UnmatchedRoute/content/application~1json/schema";
  if (described) {
    if (!described.statuses.has(String(status))) return `${method} ${path} answered ${status}, a status its operation does not describe: ${JSON.stringify(body)?.slice(0, 500)}`;
    // A document (CSV, PDF): its media type must be one the operation answers in.
    const mediaType = (contentType ?? "application/json").split(";")[0]!.trim();
    if (mediaType !== "application/json") return documentedMediaType(described, status, mediaType) ? null : `${method} ${path} answered ${status} as ${mediaType}, a type its operation does not describe`;
    pointer = `${described.responses}/${status}/content/application~1json/schema`;
  }
  const validate = validatorFor(pointer);
  if (validate(body)) return null;
  return `${method} ${path} answered ${status} with a body /openapi.json does not describe (${ajv.errorsText(validate.errors, { dataVar: "body" })}): ${JSON.stringify(body)?.slice(0, 500)}`;
}

function documentedMediaType(operation: DescribedOperation, status: number, mediaType: string): boolean {
  const [path, method] = operation.responses.replace("#/paths/", "").split("/").map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  const content = (document.paths as any)[path!]?.[method!]?.responses?.[String(status)]?.content ?? {};
  return Object.hasOwn(content, mediaType);
}

/** The path as the router reads it: percent-encoded characters decoded (`/%761/wallet` is `/v1/wallet`). */
function routedPath(url: string): string {
  const path = url.split("?")[0]!;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
