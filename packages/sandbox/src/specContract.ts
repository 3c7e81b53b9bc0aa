import {
  type HttpMethod,
  loadOpenApiDocument,
  type OpenApiDocument,
  operationCatalogue,
  resolveLocalRef,
} from '@cloud-api/spec';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { SandboxEnvironment } from './sandboxProfile.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Where the sandbox finds the component schemas when compiling a `$ref`. */
const SPEC_SCHEMA_ID = 'https://sandbox.cloud-api.invalid/openapi.json';

export interface ParameterContract {
  readonly name: string;
  readonly in: 'query' | 'header' | 'path';
  /** Lower-case header name, or the parameter name for query and path. */
  readonly key: string;
  readonly required: boolean;
  readonly example: string | undefined;
  readonly validate: ValidateFunction;
}

export interface OperationContract {
  readonly operationId: string;
  readonly method: Uppercase<HttpMethod>;
  readonly path: string;
  readonly scope: string;
  readonly successStatus: number;
  readonly idempotencyKeyRequired: boolean;
  readonly billableCreate: boolean;
  readonly parameters: readonly ParameterContract[];
  /** Validates the request body; undefined when the operation takes none. */
  readonly validateBody: ValidateFunction | undefined;
}

/** What the sandbox reads from the spec, compiled once at start-up. */
export interface SpecContract {
  readonly scopeNames: ReadonlySet<string>;
  readonly tokenPrefixes: Readonly<Record<SandboxEnvironment, string>>;
  readonly operations: readonly OperationContract[];
  /**
   * Fills the spec's `default` values of a component schema into `value` (in place) and says
   * whether it is valid. Used where the document defines defaults (enable backups), and only
   * there: elsewhere defaults would turn a partial update into a reset.
   */
  applyDefaults(schemaName: string, value: unknown): boolean;
}

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  example?: unknown;
}

interface RawOperation {
  parameters?: unknown[];
  requestBody?: unknown;
}

interface RawRequestBody {
  content?: Record<string, { schema?: unknown }>;
}

let cachedContract: SpecContract | undefined;

/** Reads and compiles the contract once per process: every sandbox shares the validators. */
export function loadSpecContract(): SpecContract {
  cachedContract ??= compileSpecContract(loadOpenApiDocument());
  return cachedContract;
}

export function compileSpecContract(doc: OpenApiDocument): SpecContract {
  const plainAjv = createAjv(doc, false);
  const defaultsAjv = createAjv(doc, true);
  const bearer = doc.components.securitySchemes.bearerAuth as {
    'x-scopes'?: Record<string, string>;
    'x-token-prefixes'?: Record<string, string>;
  };
  const scopeNames = new Set(Object.keys(bearer['x-scopes'] ?? {}));
  if (scopeNames.size === 0) throw new Error('The spec declares no scopes (bearerAuth x-scopes)');
  const tokenPrefixes: Partial<Record<SandboxEnvironment, string>> = {};
  for (const [prefix, environment] of Object.entries(bearer['x-token-prefixes'] ?? {})) {
    if (environment === 'development' || environment === 'production') tokenPrefixes[environment] = prefix;
  }
  if (!tokenPrefixes.development || !tokenPrefixes.production) {
    throw new Error(
      'The spec must declare a token prefix for both environments (bearerAuth x-token-prefixes)',
    );
  }

  const operations = operationCatalogue(doc).map((entry): OperationContract => {
    const raw = doc.paths[entry.path]?.[entry.method] as RawOperation;
    const parameters = (raw.parameters ?? []).map((reference) => {
      const parameter = resolveLocalRef(doc, reference as RawParameter);
      if (parameter.in !== 'query' && parameter.in !== 'header' && parameter.in !== 'path') {
        throw new Error(`${entry.operationId}: parameters in ${parameter.in} are not supported`);
      }
      return {
        name: parameter.name,
        in: parameter.in,
        key: parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name,
        required: parameter.required === true,
        example: typeof parameter.example === 'string' ? parameter.example : undefined,
        // A parameter schema may be a `$ref` into the components (the idempotency key is).
        validate: plainAjv.compile(rebaseRefs(parameter.schema ?? {}) as object),
      } satisfies ParameterContract;
    });
    let validateBody: ValidateFunction | undefined;
    if (raw.requestBody !== undefined) {
      const body = resolveLocalRef(doc, raw.requestBody as RawRequestBody);
      const schema = body.content?.['application/json']?.schema;
      if (schema === undefined)
        throw new Error(`${entry.operationId}: the request body has no application/json schema`);
      validateBody = plainAjv.compile(rebaseRefs(schema) as object);
    }
    return {
      operationId: entry.operationId,
      method: entry.method.toUpperCase() as Uppercase<HttpMethod>,
      path: entry.path,
      scope: entry.scope,
      successStatus: entry.successStatus,
      idempotencyKeyRequired: entry.idempotencyKeyRequired,
      billableCreate: entry.billableCreate,
      parameters,
      validateBody,
    };
  });
  const defaultFillers = new Map<string, ValidateFunction>();
  const applyDefaults = (schemaName: string, value: unknown): boolean => {
    let filler = defaultFillers.get(schemaName);
    if (!filler) {
      if (!(schemaName in doc.components.schemas)) throw new Error(`The spec has no schema ${schemaName}`);
      filler = defaultsAjv.compile({ $ref: `${SPEC_SCHEMA_ID}#/components/schemas/${schemaName}` });
      defaultFillers.set(schemaName, filler);
    }
    return filler(value);
  };
  return {
    scopeNames,
    tokenPrefixes: tokenPrefixes as Record<SandboxEnvironment, string>,
    operations,
    applyDefaults,
  };
}

function createAjv(doc: OpenApiDocument, useDefaults: boolean): Ajv2020 {
  // strict: false because OpenAPI schemas carry `example` and `x-*` keywords ajv does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: false, useDefaults, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: SPEC_SCHEMA_ID, components: { schemas: doc.components.schemas } });
  return ajv;
}

/** A top-level `$ref: '#/components/...'` must point into the registered spec document. */
function rebaseRefs(schema: unknown): unknown {
  if (schema && typeof schema === 'object' && '$ref' in schema) {
    const ref = (schema as { $ref: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/'))
      return { ...schema, $ref: `${SPEC_SCHEMA_ID}${ref}` };
  }
  return schema;
}

/** One readable sentence from ajv's first error, naming the field: `retention_days must be integer`. */
export function describeSchemaError(errors: ErrorObject[] | null | undefined, subject: string): string {
  const first = errors?.[0];
  if (!first) return `${subject} is invalid`;
  const path = first.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  const where = path ? `${subject} field '${path}'` : subject;
  if (first.keyword === 'enum') {
    const allowed = (first.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `${where} must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return `${where} ${first.message ?? 'is invalid'}`;
}
