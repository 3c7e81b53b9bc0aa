import fc from 'fast-check';
import { defaultPathSerializer } from 'openapi-fetch';
import { describe, expect, test } from 'vitest';
import { InvalidRequestError } from '../src/errors.js';
import { cachedPathSerializer } from '../src/pathSerializer.js';

const names = ['vm_id', 'restore_id', 'a', 'constructor'] as const;

/** Placeholders in every style openapi-fetch reads: simple, exploded, label and matrix. */
const placeholder = fc
  .tuple(fc.constantFrom('', '.', ';'), fc.constantFrom(...names), fc.constantFrom('', '*'))
  .map(([prefix, name, suffix]) => `{${prefix}${name}${suffix}}`);

/** URL templates as openapi-fetch hands them over: base URL and path, with odd pieces mixed in. */
const template = fc
  .array(fc.oneof(placeholder, fc.constantFrom('/', 'vms', '-', '.', '{', '}', '{}', '%7B', '$&')), {
    maxLength: 8,
  })
  .map((parts) => `https://dev-api.cloud.invalid/v1/${parts.join('')}`);

/** Values of every kind a caller of `api` can pass, including ones the fast form leaves alone. */
const value = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('..', '{vm_id}', '$&', "$'", '%2e', 'a/b', '\uD800'),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom(undefined, null),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('x', 'y'), fc.string({ maxLength: 3 })),
);
// Keys spelt like styled placeholders too, so a style read as part of the name would show.
const params = fc.dictionary(fc.constantFrom(...names, '.a', ';a', 'a*', '.vm_id'), value);

/** The URL, or the kind of error, so throwing inputs are compared too. */
function outcome(serialize: () => string): { url: string } | { error: string } {
  try {
    return { url: serialize() };
  } catch (error) {
    return { error: error instanceof Error ? error.name : String(error) };
  }
}

/**
 * What the client's serializer must do: refuse (InvalidRequestError) at the first placeholder,
 * in template order, whose parameter is missing or which alone serializes to an empty, `.` or
 * `..` segment; otherwise exactly what openapi-fetch's default serializer does.
 */
function expectedOutcome(pathname: string, pathParams: Record<string, unknown>) {
  for (const placeholder of pathname.match(/\{[^{}]+\}/g) ?? []) {
    const name = placeholder.slice(1, -1).replace(/\*$/, '').replace(/^[.;]/, '');
    const value = pathParams[name];
    if (value === undefined || value === null) return { error: 'InvalidRequestError' };
    const alone = outcome(() => defaultPathSerializer(placeholder, pathParams));
    if ('error' in alone) return alone;
    if (['', '.', '..'].includes(alone.url)) return { error: 'InvalidRequestError' };
  }
  return outcome(() => defaultPathSerializer(pathname, pathParams));
}

describe('cachedPathSerializer', () => {
  test("for every template and path parameters, it builds exactly the URL of openapi-fetch's default serializer, or refuses a missing, empty or dot segment", () => {
    const serialize = cachedPathSerializer();
    fc.assert(
      fc.property(template, params, (pathname, pathParams) => {
        // Twice: the first call cuts the template, the second reads it from the cache.
        for (let call = 0; call < 2; call++) {
          expect(outcome(() => serialize(pathname, pathParams))).toEqual(
            expectedOutcome(pathname, pathParams),
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  test.each([
    ['', '""'],
    ['.', '"."'],
    ['..', '".."'],
  ])('issue 11 #5: refuses the path id %j, naming the parameter', (id, shown) => {
    const serialize = cachedPathSerializer();
    expect(() => serialize('https://h.invalid/v1/compute/gpu-vms/{vm_id}', { vm_id: id })).toThrow(
      `Path parameter vm_id is ${shown}`,
    );
    expect(() => serialize('https://h.invalid/v1/compute/gpu-vms/{vm_id}', { vm_id: [id] })).toThrow(
      InvalidRequestError,
    );
  });

  test('encodes a value that would climb out of its segment', () => {
    const serialize = cachedPathSerializer();
    expect(serialize('https://h.invalid/v1/compute/gpu-vms/{vm_id}', { vm_id: 'a/../b?c#d' })).toBe(
      'https://h.invalid/v1/compute/gpu-vms/a%2F..%2Fb%3Fc%23d',
    );
  });

  test('keeps working when callers send more distinct templates than it remembers', () => {
    const serialize = cachedPathSerializer();
    for (let i = 0; i < 600; i++) {
      expect(serialize(`https://h.invalid/v1/p${i}/{a}`, { a: i })).toBe(`https://h.invalid/v1/p${i}/${i}`);
    }
  });
});
