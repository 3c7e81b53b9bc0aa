import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conflictingMembers } from '../src/checks/conflictingMembers.js';

/** A JSON object's text with `name` written twice, first as `first`, then as `last`. */
function twice(name: string, first: unknown, last: unknown, rest: Record<string, unknown>): string {
  const others = Object.entries(rest)
    .filter(([key]) => key !== name)
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  return `{${[`${JSON.stringify(name)}:${JSON.stringify(first)}`, ...others, `${JSON.stringify(name)}:${JSON.stringify(last)}`].join(',')}}`;
}

const value = fc.jsonValue({ maxDepth: 2 });
const name = fc.string({ minLength: 1, maxLength: 8 });

describe('conflictingMembers: names JSON parsers read differently', () => {
  it('property: a name written twice with different texts is named, wherever it sits and whatever the strings hold', () => {
    fc.assert(
      fc.property(
        name,
        value,
        value,
        fc.dictionary(name, value, { maxKeys: 4 }),
        fc.nat({ max: 2 }),
        (key, a, b, rest, depth) => {
          fc.pre(JSON.stringify(a) !== JSON.stringify(b));
          let text = twice(key, a, b, rest);
          for (let i = 0; i < depth; i++) text = `{"outer":[${text}],"note":"\\":\\""}`;
          expect(conflictingMembers(text, JSON.parse(text)).length).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('property: text without a repeated name, or with a name repeated alike, has no conflict', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), name, value, (json, key, same) => {
        const text = JSON.stringify(json);
        expect(conflictingMembers(text, JSON.parse(text))).toEqual([]);
        const alike = twice(key, same, same, {});
        expect(conflictingMembers(alike, JSON.parse(alike))).toEqual([]);
      }),
    );
  });

  it('names where the conflict is, and survives an answer nested deeper than the stack', () => {
    const text =
      '{"operation_id":"op-1","status":"queued","submitted_at":"2026-11-26T10:00:00Z","status":"accepted"}';
    expect(conflictingMembers(text, JSON.parse(text))).toEqual([
      '$.status is given twice, as "queued" and "accepted"',
    ]);
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    expect(conflictingMembers(deep, JSON.parse(deep))).toEqual([]);
  });
});
