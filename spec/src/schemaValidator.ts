import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './openApiDocument.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const SPEC_ID = 'urn:cloud-api:openapi';

/** Validates values against schemas of the bundled spec (JSON Schema draft 2020-12, as OpenAPI 3.1 uses). */
export interface SchemaValidator {
  /** Validates `value` against the schema at a JSON pointer of the spec, e.g. `#/components/schemas/BackupPolicy`. */
  validate(pointer: string, value: unknown): SchemaVerdict;
  /** Validates `value` against an inline schema that may `$ref` the spec's components. */
  validateSchema(schema: object, value: unknown): SchemaVerdict;
}

export interface SchemaVerdict {
  readonly valid: boolean;
  /** One readable line per problem, e.g. `/status must be equal to one of the allowed values (provisioning, …)`. */
  readonly errors: readonly string[];
}

/** Builds a validator over the spec's schemas; compiled validators are cached per pointer. */
export function createSchemaValidator(doc: OpenApiDocument): SchemaValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  // Refs inside the bundle are document-relative (#/components/...), so the components are
  // registered under one id and every validator resolves against it.
  ajv.addSchema({ $id: SPEC_ID, components: doc.components }, SPEC_ID);
  const cache = new Map<string, ValidateFunction>();

  const run = (fn: ValidateFunction, value: unknown): SchemaVerdict =>
    fn(value) ? { valid: true, errors: [] } : { valid: false, errors: (fn.errors ?? []).map(describeError) };

  return {
    validate(pointer, value) {
      let fn = cache.get(pointer);
      if (!fn) {
        fn = ajv.compile({ $ref: `${SPEC_ID}${pointer}` });
        cache.set(pointer, fn);
      }
      return run(fn, value);
    },
    validateSchema(schema, value) {
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', `"${SPEC_ID}#/components/`),
      ) as object;
      return run(ajv.compile(rebased), value);
    },
  };
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return `${where} ${error.message ?? 'is invalid'}${allowed ? ` (${allowed.join(', ')})` : ''}`;
}
