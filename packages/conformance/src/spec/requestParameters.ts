import { loadOpenApiDocument } from '@cloud-api/spec';

/** The schema of a parameter as far as the suite derives forms from it. */
export interface ParameterSchema {
  readonly type?: string;
  readonly pattern?: string;
  readonly enum?: readonly unknown[];
}

/** A query, path or header parameter of an operation, as the bundled spec declares it. */
export interface RequestParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly required: boolean;
  readonly schema: ParameterSchema;
  readonly example?: string;
}

interface RawParameter {
  $ref?: string;
  name?: string;
  in?: string;
  required?: boolean;
  schema?: ParameterSchema & { $ref?: string };
  example?: unknown;
}

type RawOperation = { operationId?: string; parameters?: RawParameter[] };

let cache: Map<string, RequestParameter[]> | undefined;

function load(): Map<string, RequestParameter[]> {
  const doc = loadOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, RawOperation | RawParameter[]>>;
    components: { parameters?: Record<string, RawParameter>; schemas?: Record<string, ParameterSchema> };
  };
  const resolveParameter = (raw: RawParameter): RawParameter =>
    raw.$ref ? (doc.components.parameters?.[raw.$ref.replace('#/components/parameters/', '')] ?? {}) : raw;
  const resolveSchema = (schema: RawParameter['schema']): ParameterSchema =>
    schema?.$ref
      ? (doc.components.schemas?.[schema.$ref.replace('#/components/schemas/', '')] ?? {})
      : (schema ?? {});
  const read = (raw: RawParameter): RequestParameter | undefined => {
    const p = resolveParameter(raw);
    if (!p.name || (p.in !== 'query' && p.in !== 'path' && p.in !== 'header')) return undefined;
    return {
      name: p.name,
      in: p.in,
      required: p.required === true,
      schema: resolveSchema(p.schema),
      ...(typeof p.example === 'string' ? { example: p.example } : {}),
    };
  };
  const byOperation = new Map<string, RequestParameter[]>();
  for (const item of Object.values(doc.paths)) {
    const shared = (Array.isArray(item.parameters) ? item.parameters : []).map(read);
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters' || Array.isArray(operation) || !operation.operationId) continue;
      const own = (operation.parameters ?? []).map(read);
      // An operation's own declaration of a name replaces the path item's.
      const merged = new Map<string, RequestParameter>();
      for (const p of [...shared, ...own]) if (p) merged.set(`${p.in} ${p.name}`, p);
      byOperation.set(operation.operationId, [...merged.values()]);
    }
  }
  return byOperation;
}

/** Every parameter the spec declares for an operation (query, path and header). */
export function requestParameters(operationId: string): readonly RequestParameter[] {
  cache ??= load();
  return cache.get(operationId) ?? [];
}
