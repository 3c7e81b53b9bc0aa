import { type OpenApiDocument, resolveLocalRef } from '@cloud-api/spec';
import { gapIds } from './gapLinks.js';

/** A JSON Schema as the bundled spec writes it (only the keywords the reference shows). */
export interface SchemaObject {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaObject>>;
  readonly required?: readonly string[];
  readonly items?: SchemaObject;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly additionalProperties?: boolean | SchemaObject;
}

/** One row of a field table: nested object fields are flattened to dotted names. */
export interface SchemaField {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
  readonly enumValues: readonly unknown[];
  readonly defaultValue: unknown;
  readonly gaps: readonly string[];
}

const MAX_DEPTH = 4;

function componentName(ref: string | undefined): string | undefined {
  return ref?.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
}

/** The type as a reader says it: `string · date-time`, `integer \| null`, `array of Bucket`. */
export function describeType(schema: SchemaObject, document: OpenApiDocument): string {
  const named = componentName(schema.$ref);
  const resolved = resolveLocalRef<SchemaObject>(document, schema);
  const types = Array.isArray(resolved.type) ? resolved.type : resolved.type ? [resolved.type] : [];
  let text = types.length > 0 ? types.join(' | ') : 'any';
  if (types.includes('array') && resolved.items) {
    text = text.replace('array', `array of ${describeType(resolved.items, document)}`);
  } else if (named && types.includes('object')) text = named;
  if (resolved.format) text += ` · ${resolved.format}`;
  return text;
}

/** Every field of an object schema, nested objects flattened (`schedule.hour`). */
export function schemaFields(
  schema: SchemaObject,
  document: OpenApiDocument,
  prefix = '',
  depth = 0,
): SchemaField[] {
  const resolved = resolveLocalRef<SchemaObject>(document, schema);
  const fields: SchemaField[] = [];
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    const target = resolveLocalRef<SchemaObject>(document, property);
    fields.push({
      name: `${prefix}${name}`,
      type: describeType(property, document),
      required: resolved.required?.includes(name) ?? false,
      description: property.description ?? target.description ?? '',
      enumValues: target.enum ?? [],
      defaultValue: property.default ?? target.default,
      gaps: [...new Set([...gapIds(property), ...gapIds(target)])],
    });
    if (target.properties && depth < MAX_DEPTH) {
      fields.push(...schemaFields(target, document, `${prefix}${name}.`, depth + 1));
    }
  }
  return fields;
}
