import { loadOpenApiDocument } from '@cloud-api/spec';

type PropertySchema = { readonly default?: unknown };

/**
 * The documented defaults of a component schema's optional properties (`default` in the spec):
 * a record that leaves such a field out reads as that value. The NAT rule's `protocol` is `tcp`,
 * its `note` empty and `enabled` true whether a target writes them or not.
 */
export function schemaDefaults(schemaName: string): Readonly<Record<string, unknown>> {
  const doc = loadOpenApiDocument() as unknown as {
    components: { schemas: Record<string, { properties?: Record<string, PropertySchema> }> };
  };
  const properties = doc.components.schemas[schemaName]?.properties;
  if (!properties) throw new Error(`the spec has no schema ${schemaName} with properties`);
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => schema.default !== undefined)
      .map(([name, schema]) => [name, schema.default]),
  );
}
