#!/usr/bin/env node
// Writes schema/target-profile.schema.json from the one definition (src/profileSchema.ts), as
// built in dist/. `pnpm --filter @cloud-api/target-profile generate` builds first, then runs this;
// test/schemaFile.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { renderTargetProfileSchemaFile, targetProfileSchemaPath } from '../dist/index.js';

writeFileSync(targetProfileSchemaPath, renderTargetProfileSchemaFile());
process.stdout.write(`wrote ${targetProfileSchemaPath}\n`);
