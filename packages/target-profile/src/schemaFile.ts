import { fileURLToPath } from 'node:url';
import { targetProfileSchema } from './profileSchema.js';

/** The committed, published JSON Schema file of this package (`schema/target-profile.schema.json`). */
export const targetProfileSchemaPath: string = fileURLToPath(
  new URL('../schema/target-profile.schema.json', import.meta.url),
);

/** The text of schema/target-profile.schema.json: the schema as JSON, two-space indented. */
export function renderTargetProfileSchemaFile(): string {
  return `${JSON.stringify(targetProfileSchema(), null, 2)}\n`;
}
