import { loadOpenApiDocument } from '@cloud-api/spec';

/** A field of a request body as the spec types it; nested objects are flattened to dotted paths. */
export interface RequestField {
  /** Path of the field in the body, e.g. `['schedule', 'hour']`. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  readonly enum?: readonly unknown[];
}

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = components[name] ?? {};
  }
  return current;
}

/** The non-null type a schema declares (a nullable field is typed by its other member). */
function typeOf(schema: Schema): RequestField['type'] | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === 'string' && t !== 'null',
  );
  const [first] = types;
  return types.length === 1 ? (first as RequestField['type']) : undefined;
}

function fieldsOf(schema: Schema, components: Record<string, Schema>, path: string[]): RequestField[] {
  const resolved = resolve(schema, components);
  const members = [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].map((m) =>
    resolve(m, components),
  );
  const merged: Schema = { ...resolved, properties: { ...resolved.properties } };
  for (const member of members) {
    const properties = { ...merged.properties, ...member.properties };
    Object.assign(merged, member, { properties });
  }
  const fields: RequestField[] = [];
  for (const [name, property] of Object.entries(merged.properties ?? {})) {
    const field = resolve(property, components);
    const nested = [...(field.anyOf ?? []), ...(field.oneOf ?? [])].map((m) => resolve(m, components));
    const effective = nested.find((m) => typeOf(m) !== undefined) ?? field;
    const type = typeOf(effective) ?? (effective.properties ? 'object' : undefined);
    if (!type) continue;
    const fieldPath = [...path, name];
    fields.push({ path: fieldPath, type, ...(effective.enum ? { enum: effective.enum } : {}) });
    if (type === 'object') fields.push(...fieldsOf(effective, components, fieldPath));
  }
  return fields;
}

let cache: Map<string, RequestField[]> | undefined;

/** The typed fields of each operation's JSON request body, read from the bundled spec. */
export function requestFields(operationId: string): RequestField[] {
  if (!cache) {
    cache = new Map();
    const doc = loadOpenApiDocument() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          { operationId?: string; requestBody?: { content?: Record<string, { schema?: Schema }> } }
        >
      >;
      components: { schemas: Record<string, Schema> };
    };
    for (const methods of Object.values(doc.paths))
      for (const operation of Object.values(methods)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (operation.operationId && schema)
          cache.set(operation.operationId, fieldsOf(schema, doc.components.schemas, []));
      }
  }
  return cache.get(operationId) ?? [];
}
