import { SandboxProfileError } from './sandboxProfile.js';

/**
 * The keys and value types a profile file may hold: the same set as the conformance package's
 * target-profile schema (which the sandbox must not depend on). A misspelt key is an error rather
 * than silently ignored, because an ignored `revokedToken` or `billingDenied` quietly turns off
 * the rules that need it.
 */
type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'number' }
  | { readonly kind: 'stringOrList' }
  | { readonly kind: 'list'; readonly item: Shape }
  | { readonly kind: 'map'; readonly value: Shape }
  | {
      readonly kind: 'record';
      readonly fields: Readonly<Record<string, Shape>>;
      readonly required: readonly string[];
    };

const text: Shape = { kind: 'string' };
const textList: Shape = { kind: 'list', item: text };
const record = (fields: Record<string, Shape>, required: readonly string[] = []): Shape => ({
  kind: 'record',
  fields,
  required,
});

const PROFILE_SHAPE = record(
  {
    $schema: text,
    name: text,
    baseUrl: text,
    environment: text,
    identities: {
      kind: 'map',
      value: record({ token: text, scopes: { kind: 'stringOrList' }, workspaces: { kind: 'stringOrList' } }, [
        'token',
        'scopes',
        'workspaces',
      ]),
    },
    revokedToken: text,
    otherEnvironmentToken: text,
    workspaces: record({ primary: text, secondary: text, billingDenied: text }, ['primary', 'secondary']),
    resources: record({
      gpuVmIds: textList,
      deletableGpuVmIds: textList,
      restoreIds: textList,
      natRules: {
        kind: 'list',
        item: record({ vpcId: text, natGatewayId: text, ruleId: text }, ['vpcId', 'natGatewayId', 'ruleId']),
      },
      releasableReservedIpIds: textList,
    }),
    billing: record({ skuCode: text }, ['skuCode']),
    mutations: { kind: 'boolean' },
    allowProduction: { kind: 'boolean' },
    requestTimeoutMs: { kind: 'number' },
    rateLimitPerSecond: { kind: 'number' },
    unsupportedRules: { kind: 'list', item: record({ id: text, reason: text }, ['id', 'reason']) },
  },
  ['name', 'baseUrl', 'environment', 'identities', 'workspaces', 'billing'],
);

const EXPECTED: Readonly<Record<Shape['kind'], string>> = {
  string: 'a string',
  boolean: 'true or false',
  number: 'a number',
  stringOrList: '"all" or a list',
  list: 'a list',
  map: 'a mapping of names to entries',
  record: 'a mapping',
};

/** A key is echoed in messages unless it could be a token pasted in the wrong place. */
function printableKey(key: string): string {
  return /svc_|key_/i.test(key) ? '(a key that looks like a token)' : key;
}

function join(field: string, key: string): string {
  const printable = printableKey(key);
  return field ? `${field}.${printable}` : printable;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function check(value: unknown, shape: Shape, field: string): void {
  const wrongType = () =>
    new SandboxProfileError(`${field}: expected ${EXPECTED[shape.kind]}, found ${kindOf(value)}`);
  switch (shape.kind) {
    case 'string':
    case 'boolean':
    case 'number':
      if (typeof value !== shape.kind) throw wrongType();
      return;
    case 'stringOrList':
      if (typeof value !== 'string' && !Array.isArray(value)) throw wrongType();
      return;
    case 'list':
      if (!Array.isArray(value)) throw wrongType();
      value.forEach((item, index) => {
        check(item, shape.item, `${field}[${index}]`);
      });
      return;
    case 'map':
      if (!isMapping(value)) throw wrongType();
      for (const [key, item] of Object.entries(value)) check(item, shape.value, join(field, key));
      return;
    case 'record': {
      if (!isMapping(value)) throw wrongType();
      const known = Object.keys(shape.fields);
      for (const [key, item] of Object.entries(value)) {
        const fieldShape = shape.fields[key];
        if (fieldShape === undefined) {
          throw new SandboxProfileError(
            `${join(field, key)}: unknown key; the keys allowed here are ${known.join(', ')}`,
          );
        }
        check(item, fieldShape, join(field, key));
      }
      for (const key of shape.required) {
        if (value[key] === undefined || value[key] === null) {
          throw new SandboxProfileError(`${join(field, key)}: missing; it is required`);
        }
      }
      return;
    }
  }
}

/**
 * Checks the keys and value types of a parsed profile file. Messages name the field and the
 * expected type, never a value, so a token in the wrong place is not printed.
 */
export function checkProfileShape(value: unknown): void {
  check(value, PROFILE_SHAPE, '');
}
