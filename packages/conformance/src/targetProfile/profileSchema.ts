import { loadOpenApiDocument } from '@cloud-api/spec';

/** The 16 scope names, read from the spec's bearer scheme so the two never drift apart. */
export function scopeNames(): string[] {
  const scheme = loadOpenApiDocument().components.securitySchemes.bearerAuth as {
    'x-scopes'?: Record<string, string>;
  };
  return Object.keys(scheme['x-scopes'] ?? {});
}

const workspaceId = {
  type: 'string',
  pattern: '^[1-9][0-9]*$',
  description: 'A workspace ID: a positive decimal integer written as a string, e.g. "1042".',
};
const idList = { type: 'array', items: { type: 'string', minLength: 1 } };

/** JSON Schema (draft 2020-12) of a target profile; published as schema/target-profile.schema.json. */
export function targetProfileSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://cloud-api.invalid/schemas/target-profile.schema.json',
    title: 'Conformance target profile',
    description:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
      'Describes an environment for @cloud-api/conformance and seeds @cloud-api/sandbox. String values may reference environment variables as ${NAME}.',
    type: 'object',
    additionalProperties: false,
    required: ['name', 'baseUrl', 'environment', 'identities', 'workspaces', 'billing'],
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string', minLength: 1 },
      baseUrl: {
        type: 'string',
        pattern: '^https?://[^\\s/]+(/[^\\s]*)?/v1$',
        description: 'Base URL of the API, ending with /v1 (no trailing slash).',
      },
      environment: { enum: ['development', 'production'] },
      identities: {
        type: 'object',
        minProperties: 1,
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          required: ['token', 'scopes', 'workspaces'],
          properties: {
            token: { type: 'string', minLength: 1 },
            scopes: {
              anyOf: [{ const: 'all' }, { type: 'array', items: { enum: scopeNames() }, uniqueItems: true }],
            },
            workspaces: { anyOf: [{ const: 'all' }, { type: 'array', items: workspaceId, minItems: 1 }] },
          },
        },
      },
      revokedToken: { type: 'string', minLength: 1 },
      otherEnvironmentToken: { type: 'string', minLength: 1 },
      workspaces: {
        type: 'object',
        additionalProperties: false,
        required: ['primary', 'secondary'],
        properties: { primary: workspaceId, secondary: workspaceId, billingDenied: workspaceId },
      },
      resources: {
        type: 'object',
        additionalProperties: false,
        properties: {
          gpuVmIds: idList,
          deletableGpuVmIds: idList,
          restoreIds: idList,
          natRules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['vpcId', 'natGatewayId', 'ruleId'],
              properties: {
                vpcId: { type: 'string', minLength: 1 },
                natGatewayId: { type: 'string', minLength: 1 },
                ruleId: { type: 'string', minLength: 1 },
              },
            },
          },
          releasableReservedIpIds: idList,
        },
      },
      billing: {
        type: 'object',
        additionalProperties: false,
        required: ['skuCode'],
        properties: { skuCode: { type: 'string', minLength: 1 } },
      },
      mutations: { type: 'boolean' },
      allowProduction: { type: 'boolean' },
      requestTimeoutMs: { type: 'integer', minimum: 100, maximum: 600000 },
      rateLimitPerSecond: { type: 'number', exclusiveMinimum: 0 },
      concurrency: {
        type: 'integer',
        minimum: 1,
        maximum: 32,
        description:
          'Most requests in flight at once for checks whose cases are independent (default 4, never above rateLimitPerSecond); checks that change state always send one at a time. Same as --concurrency.',
      },
      maxResponseBytes: {
        type: 'integer',
        minimum: 1024,
        maximum: 67108864,
        description:
          'Largest response body the suite reads (default 1048576, 1 MiB); a larger answer fails its check and the connection is dropped.',
      },
      strict: {
        type: 'boolean',
        description:
          'Gate mode (same as --strict): a check skipped for a reason not declared in unsupportedRules, or an inconclusive rule, fails the run.',
      },
      unsupportedRules: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'reason'],
          properties: {
            id: { type: 'string', pattern: '^[A-Z]+-\\d+$' },
            reason: { type: 'string', minLength: 1 },
          },
        },
      },
    },
  };
}
