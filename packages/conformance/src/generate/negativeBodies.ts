import type { RequestField } from '../spec/requestSchemas.js';

/** One body the document rules out, named by what is wrong with it. */
export interface NegativeBody {
  readonly kind: string;
  readonly body: string;
}

/**
 * Values of a type no reading of the document allows for a field of `type`. Coercions some
 * frameworks make on purpose (the text "2" for an integer, a number for a string, 1/0 for a
 * boolean, `null` for an absent field) are left out: refusing those is not what the document asks.
 */
const WRONG_VALUES: Record<RequestField['type'], readonly { kind: string; value: unknown }[]> = {
  string: [
    { kind: 'an object', value: { text: 'x' } },
    { kind: 'an array', value: ['x'] },
  ],
  integer: [
    { kind: 'an object', value: { value: 1 } },
    { kind: 'an array', value: [1] },
    { kind: 'text', value: 'not-a-number' },
    { kind: 'a fraction', value: 7.5 },
  ],
  number: [
    { kind: 'an object', value: { value: 1 } },
    { kind: 'an array', value: [1] },
    { kind: 'text', value: 'not-a-number' },
  ],
  boolean: [
    { kind: 'an object', value: { value: true } },
    { kind: 'an array', value: [true] },
    { kind: 'text', value: 'not-a-boolean' },
  ],
  object: [
    { kind: 'an array', value: [] },
    { kind: 'text', value: 'not-an-object' },
    { kind: 'a number', value: 42 },
  ],
  array: [
    { kind: 'an object', value: {} },
    { kind: 'text', value: 'not-an-array' },
  ],
};

const NOT_AN_OBJECT = ['[]', '[{}]', '"text"', '42', 'true'];
const MALFORMED = ['{', '{"name": }', '{"a":1'];

function withField(
  base: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...base, [head]: value };
  const inner = base[head];
  const nested =
    inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {};
  return { ...base, [head]: withField(nested, rest, value) };
}

/**
 * Every body the document rules out for an operation, derived from its request schema: one wrong
 * field at a time on an otherwise valid body, values outside enums, JSON that is not an object,
 * and malformed JSON.
 */
export function negativeBodies(
  fields: readonly RequestField[],
  validBody: Record<string, unknown>,
): NegativeBody[] {
  const bodies: NegativeBody[] = [];
  for (const field of fields) {
    const name = field.path.join('.');
    for (const wrong of WRONG_VALUES[field.type])
      bodies.push({
        kind: `${name} is ${wrong.kind} (${field.type} expected)`,
        body: JSON.stringify(withField(validBody, field.path, wrong.value)),
      });
    if (field.enum && field.type === 'string')
      bodies.push({
        kind: `${name} is outside its enum (${field.enum.join(', ')})`,
        body: JSON.stringify(withField(validBody, field.path, 'icmp-not-documented')),
      });
  }
  for (const body of NOT_AN_OBJECT) bodies.push({ kind: 'JSON that is not an object', body });
  for (const body of MALFORMED) bodies.push({ kind: 'malformed JSON', body });
  // A streaming decoder (Go's json.Decoder, a framework reading "the first value") stops after one
  // value: a complete body with more after it is not one JSON text, and must be refused whole.
  const valid = JSON.stringify(validBody);
  bodies.push({ kind: 'a valid body followed by more text', body: `${valid} conformance-extra` });
  bodies.push({ kind: 'a valid body followed by a second JSON object', body: `${valid}{}` });
  return bodies;
}
