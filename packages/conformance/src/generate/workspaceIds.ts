import fc from 'fast-check';

/**
 * `workspace_id` values the document rejects: zero, negative and non-numeric (decimals, exponents,
 * signs, spaces, empty, non-ASCII digits). Each family is named so a shrunk counterexample says
 * what kind of value it was.
 */
export const zeroWorkspaceId = fc.constantFrom('0', '00', '000', '-0', '+0');
export const negativeWorkspaceId = fc.integer({ min: 1, max: 1_000_000 }).map((n) => `-${n}`);
export const decimalWorkspaceId = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 99 }))
  .map(([whole, fraction]) => `${whole}.${fraction}`);
export const exponentWorkspaceId = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 9 }))
  .map(([m, e]) => `${m}e${e}`);
export const signedWorkspaceId = fc.integer({ min: 1, max: 99999 }).map((n) => `+${n}`);
export const spacedWorkspaceId = fc
  .tuple(fc.integer({ min: 1, max: 99999 }), fc.constantFrom(' ', '\t', '%20'))
  .chain(([n, space]) =>
    fc.constantFrom(`${space}${n}`, `${n}${space}`, `${String(n)[0]}${space}${String(n).slice(1) || '0'}`),
  );
export const emptyWorkspaceId = fc.constant('');
/** Arabic-Indic, Devanagari and full-width digits: numbers to a human, not to the API. */
export const nonAsciiDigitWorkspaceId = fc
  .tuple(
    fc.constantFrom(0x0660, 0x0966, 0xff10),
    fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
  )
  .map(([zero, digits]) => digits.map((d) => String.fromCodePoint(zero + d)).join(''));
export const nonNumericWorkspaceId = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/),
  fc.constantFrom('NaN', 'Infinity', 'null', 'true', '0x1F', '1,000', '1_000', '[1]'),
);

export const invalidWorkspaceId: fc.Arbitrary<string> = fc.oneof(
  zeroWorkspaceId,
  negativeWorkspaceId,
  decimalWorkspaceId,
  exponentWorkspaceId,
  signedWorkspaceId,
  spacedWorkspaceId,
  emptyWorkspaceId,
  nonAsciiDigitWorkspaceId,
  nonNumericWorkspaceId,
);
