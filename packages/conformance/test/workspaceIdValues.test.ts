import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { octalSpellingOf, overlappingIdsOf } from '../src/generate/workspaceForms.js';
import { invalidWorkspaceId } from '../src/generate/workspaceIds.js';

/** How a lenient framework reads a value as a finite number: trimmed, JS Number (signs, decimals, exponents, hex). */
const readAsPositiveNumber = (value: string): boolean => {
  const text = decodeURIComponent(value).trim().normalize('NFKC').replaceAll('_', '');
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && n > 0;
};

describe('the workspace_id values WS-2 (MUST) demands a refusal for', () => {
  it('property: each is zero, negative or non-numeric; none is a positive number in another spelling (those are WS-5, a SHOULD)', () => {
    fc.assert(
      fc.property(invalidWorkspaceId, (value) => {
        expect(readAsPositiveNumber(value), JSON.stringify(value)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('workspace IDs written with the digits of an allowed one (POLICY-1)', () => {
  it('are its parts, it with a digit more and its neighbours, each a canonical positive ID other than itself', () => {
    expect(overlappingIdsOf('1042').sort()).toEqual(
      ['1', '10', '104', '1041', '10420', '1043', '11042', '2', '4', '42'].sort(),
    );
    expect(overlappingIdsOf('7')).toEqual(['70', '17', '6', '8']);
  });
});

describe('the octal spelling of an allowed workspace ID (POLICY-1)', () => {
  it('property: read as decimal it is another ID, read as octal (a leading zero) it is the allowed one', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 8n, max: 10n ** 18n }), (n) => {
        const id = String(n);
        const spelling = octalSpellingOf(id) ?? '';
        expect(spelling).toMatch(/^0[0-7]+$/);
        expect(BigInt(spelling)).not.toBe(n);
        expect(BigInt(`0o${spelling.slice(1)}`)).toBe(n);
      }),
    );
    expect(octalSpellingOf('1042')).toBe('02022');
    // Below 8, `0` + its octal digits is the same number read either way: no other ID.
    for (const id of ['1', '7']) expect(octalSpellingOf(id)).toBeUndefined();
  });
});
