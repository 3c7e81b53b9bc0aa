// The bundle is valid OpenAPI 3.1 according to a validator independent of Redocly (the
// official OpenAPI 3.1 JSON Schema, applied by @seriousme/openapi-schema-validator).
import { type SpecData, Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '../src/index.js';

type Broken = {
  components: { parameters: Record<string, Record<string, unknown>> };
  servers: Record<string, unknown>[];
  info: Record<string, unknown>;
};

describe('OpenAPI 3.1 schema', () => {
  it('the bundled spec validates', async () => {
    const result = await new Validator().validate(
      structuredClone(loadOpenApiDocument()) as unknown as SpecData,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each([
    [
      'a parameter in the body (OpenAPI 2 style)',
      (d: Broken) => {
        (d.components.parameters.WorkspaceId as Record<string, unknown>).in = 'body';
      },
    ],
    [
      'a server without a url',
      (d: Broken) => {
        delete d.servers[0]?.url;
      },
    ],
    [
      'info without a title',
      (d: Broken) => {
        delete d.info.title;
      },
    ],
  ])('the validator rejects a broken copy: %s', async (_label, breakIt) => {
    const broken = structuredClone(loadOpenApiDocument()) as unknown as Broken;
    breakIt(broken);
    const result = await new Validator().validate(broken as unknown as SpecData);
    expect(result.valid).toBe(false);
  });
});
