import {
  loadOpenApiDocument,
  type OpenApiDocument,
  type OperationEntry,
  operationCatalogue,
  resolveLocalRef,
} from '@cloud-api/spec';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isIsoDateTime } from './isoTimestamp.js';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface ResponseObject {
  readonly description?: string;
  readonly content?: Record<string, { schema?: unknown }>;
  readonly 'x-assumptions'?: readonly string[];
}

export interface ResponseCheck {
  /** The response key of the spec that covers this status, or undefined when none does. */
  readonly responseKey: string | undefined;
  /** Whether the spec expects a JSON body for it. */
  readonly expectsBody: boolean;
  /** Schema violations that break a MUST. */
  readonly mustErrors: readonly string[];
  /** Violations of what the spec assumed (`x-assumptions`): warnings only. */
  readonly shouldErrors: readonly string[];
}

/** Replaces every subschema carrying `x-assumptions` with `true`: what the document does not say cannot fail a MUST. */
function relaxAssumptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relaxAssumptions);
  if (!node || typeof node !== 'object') return node;
  if ('x-assumptions' in node) return true;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, relaxAssumptions(value)]));
}

/** Points `#/components/schemas/X` at the schema registered as `<variant>:X`. */
function rewriteRefs(node: unknown, variant: Variant): unknown {
  return JSON.parse(JSON.stringify(node).replaceAll('"#/components/schemas/', `"${variant}:`));
}

type Variant = 'must' | 'should';

export interface ResponseValidator {
  check(operationId: string, status: number, body: unknown): ResponseCheck;
  operations: readonly OperationEntry[];
}

export function createResponseValidator(doc: OpenApiDocument = loadOpenApiDocument()): ResponseValidator {
  // The spec's schemas are checked against the OpenAPI 3.1 meta-schema when the spec is built:
  // checking them again here cost every run a tenth of a second.
  const ajv = addFormats(
    new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false }),
  );
  // ajv-formats' date-time also takes a space for `T`; the document's `datetime` is ISO 8601.
  ajv.addFormat('date-time', { type: 'string', validate: isIsoDateTime });
  // Each component schema is registered once per variant, so every response schema that refers
  // to it shares one compiled validator instead of compiling its own copy.
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    ajv.addSchema(relaxAssumptions(rewriteRefs(schema, 'must')) as object, `must:${name}`);
    ajv.addSchema(rewriteRefs(schema, 'should') as object, `should:${name}`);
  }
  const cache = new Map<string, ValidateFunction>();
  const operations = operationCatalogue(doc);

  function compiled(key: string, variant: Variant, schema: unknown): ValidateFunction {
    const cacheKey = `${variant} ${key}`;
    let validate = cache.get(cacheKey);
    if (!validate) {
      const rewritten = rewriteRefs(schema, variant);
      const root = variant === 'must' ? relaxAssumptions(rewritten) : rewritten;
      validate = ajv.compile(root as object | boolean);
      cache.set(cacheKey, validate);
    }
    return validate;
  }

  // Every answer of the run is checked (RESP-1 run-wide): resolve each (operation, status) once.
  const responseCache = new Map<string, [string, ResponseObject] | undefined>();
  function responseFor(operationId: string, status: number): [string, ResponseObject] | undefined {
    const cacheKey = `${operationId} ${status}`;
    if (responseCache.has(cacheKey)) return responseCache.get(cacheKey);
    const found = resolveResponse(operationId, status);
    responseCache.set(cacheKey, found);
    return found;
  }

  function resolveResponse(operationId: string, status: number): [string, ResponseObject] | undefined {
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`Unknown operation ${operationId}`);
    const raw = doc.paths[op.path]?.[op.method] as { responses: Record<string, unknown> };
    const responses = Object.fromEntries(
      Object.entries(raw.responses).map(([key, value]) => [
        key,
        resolveLocalRef<ResponseObject>(doc, value as ResponseObject),
      ]),
    );
    const exact = responses[String(status)];
    if (exact) return [String(status), exact];
    if (status >= 200 && status < 300) {
      // A-SUCCESS-STATUS-UNNUMBERED: the document names no number, so any 2xx is that response.
      const unnumbered = Object.entries(responses).find(
        ([key, value]) =>
          /^2\d\d$/.test(key) && value['x-assumptions']?.includes('A-SUCCESS-STATUS-UNNUMBERED'),
      );
      if (unnumbered) return unnumbered;
    }
    const range = responses[`${String(status)[0]}XX`];
    if (range) return [`${String(status)[0]}XX`, range];
    if (status >= 300 && responses.default) return ['default', responses.default];
    return undefined;
  }

  return {
    operations,
    check(operationId, status, body) {
      const found = responseFor(operationId, status);
      if (!found)
        return {
          responseKey: undefined,
          expectsBody: false,
          mustErrors: [`status ${status} is not declared for ${operationId}`],
          shouldErrors: [],
        };
      const [key, response] = found;
      const schema = response.content?.['application/json']?.schema;
      if (schema === undefined)
        return { responseKey: key, expectsBody: false, mustErrors: [], shouldErrors: [] };
      const schemaKey = `${operationId} ${key}`;
      const format = (fn: ValidateFunction): string[] =>
        fn(body)
          ? []
          : (fn.errors ?? []).map(
              (e) =>
                `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`,
            );
      const mustErrors = format(compiled(schemaKey, 'must', schema));
      let shouldErrors: string[] | undefined;
      return {
        responseKey: key,
        expectsBody: true,
        mustErrors,
        // Most callers (the run-wide audit among them) never read the warnings: validate on demand.
        get shouldErrors() {
          shouldErrors ??= format(compiled(schemaKey, 'should', schema));
          return shouldErrors;
        },
      };
    },
  };
}

let bundled: ResponseValidator | undefined;

/**
 * The bundled spec's validator, made once per process and shared by its runs: it only caches
 * compiled schemas, and compiling them again cost every run (a test file runs dozens) tens of
 * milliseconds.
 */
export function bundledResponseValidator(): ResponseValidator {
  bundled ??= createResponseValidator();
  return bundled;
}
