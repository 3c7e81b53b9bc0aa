import fc from 'fast-check';

/**
 * `workspace_id` values the document rejects in so many words: zero (however written), negative
 * and non-numeric ones (letters, empty, words such as NaN, a space or a comma inside the digits).
 * Each family is named so a shrunk counterexample says what kind of value it was. Spellings a
 * framework may read as a positive number (a plus sign, spaces around it, decimals, an exponent,
 * hexadecimal, other digits, an underscore) are not here: the document does not call them
 * non-numeric, so serving them is WS-5's (SHOULD) to judge, on the real workspace's own spellings.
 */
export const zeroWorkspaceId = fc.constantFrom('0', '00', '000', '-0', '+0', '0.0');
export const negativeWorkspaceId = fc.integer({ min: 1, max: 1_000_000 }).map((n) => `-${n}`);
export const spaceInsideWorkspaceId = fc
  .integer({ min: 10, max: 99999 })
  .chain((n) =>
    fc.constantFrom(' ', '\t', '%20').map((space) => `${String(n)[0]}${space}${String(n).slice(1)}`),
  );
export const emptyWorkspaceId = fc.constant('');
export const nonNumericWorkspaceId = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/),
  fc.constantFrom('NaN', 'Infinity', 'null', 'true', '1,000', '[1]', '12abc', 'abc12'),
);

export const invalidWorkspaceId: fc.Arbitrary<string> = fc.oneof(
  zeroWorkspaceId,
  negativeWorkspaceId,
  spaceInsideWorkspaceId,
  emptyWorkspaceId,
  nonNumericWorkspaceId,
);
