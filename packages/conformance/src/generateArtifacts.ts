#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTargetProfileSchemaFile } from '@cloud-api/target-profile';
import { renderConformanceEventsSchemaFile } from './reporters/ndjsonEventSchema.js';
import { renderRuleMatrix } from './traceability/ruleMatrix.js';
import { renderRuleThreats } from './traceability/ruleThreats.js';

/** Files generated from the package's data and committed; tests fail when they are stale. */
export const ruleMatrixPath: string = fileURLToPath(
  new URL('../../../docs/reference/rule-matrix.md', import.meta.url),
);
export const ruleThreatsPath: string = fileURLToPath(
  new URL('../../../docs/reference/rule-threats.md', import.meta.url),
);
export const profileSchemaPath: string = fileURLToPath(
  new URL('../schema/target-profile.schema.json', import.meta.url),
);
/** The schema of each line `--reporter ndjson` writes, generated from its TypeBox definition. */
export const eventsSchemaPath: string = fileURLToPath(
  new URL('../schema/conformance-events.schema.json', import.meta.url),
);

/**
 * The published profile schema, kept here too (users' profiles point their `$schema` at
 * `@cloud-api/conformance/schema/target-profile.schema.json`): the same text as
 * @cloud-api/target-profile's schema/target-profile.schema.json, generated from its definition.
 */
export function renderProfileSchemaFile(): string {
  return renderTargetProfileSchemaFile();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(dirname(ruleMatrixPath), { recursive: true });
  writeFileSync(ruleMatrixPath, renderRuleMatrix());
  writeFileSync(ruleThreatsPath, renderRuleThreats());
  writeFileSync(profileSchemaPath, renderProfileSchemaFile());
  writeFileSync(eventsSchemaPath, renderConformanceEventsSchemaFile());
  process.stdout.write(
    `wrote ${ruleMatrixPath}\nwrote ${ruleThreatsPath}\nwrote ${profileSchemaPath}\nwrote ${eventsSchemaPath}\n`,
  );
}
