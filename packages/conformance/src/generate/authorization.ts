import fc from 'fast-check';
import { swapCase } from './arrivalForms.js';

/** How an Authorization header can be missing or malformed. `null` means the header is absent. */
export function malformedAuthorizationCases(validToken: string): { kind: string; header: string | null }[] {
  const basic = Buffer.from('conformance:not-a-bearer-token').toString('base64');
  return [
    { kind: 'absent', header: null },
    { kind: 'empty', header: '' },
    { kind: 'Basic scheme', header: `Basic ${basic}` },
    { kind: 'Basic scheme carrying the token', header: `Basic ${validToken}` },
    {
      kind: 'Basic scheme carrying the token as user',
      header: `Basic ${Buffer.from(`${validToken}:`).toString('base64')}`,
    },
    { kind: 'no scheme', header: validToken },
    { kind: 'scheme only', header: 'Bearer' },
    { kind: 'scheme and space only', header: 'Bearer ' },
    { kind: 'other scheme', header: `Token ${validToken}` },
    { kind: 'no space after scheme', header: `Bearer${validToken}` },
    // RFC 6750's b64token has no space: whatever follows one is not part of a valid credential.
    { kind: 'the token followed by more text', header: `Bearer ${validToken} conformance-extra` },
  ];
}

export function malformedAuthorization(
  validToken: string,
): fc.Arbitrary<{ kind: string; header: string | null }> {
  return fc.constantFrom(...malformedAuthorizationCases(validToken));
}

// Made once, not per check: a string arbitrary tries its characters against fast-check's list of
// troublesome strings when it is made (milliseconds each time), and a reused arbitrary draws the
// same values from the same seed.
const tokenBody = fc.stringMatching(/^[a-z0-9]{1,16}$/);
const opaqueToken = fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,24}$/);

/** Tokens no environment issued: random text, and random text behind a real prefix. */
export function unknownToken(environmentPrefix: string): fc.Arbitrary<string> {
  return fc.oneof(
    tokenBody.map((b) => `${environmentPrefix}${b}`),
    tokenBody.map((b) => `${environmentPrefix}conformance_unknown_${b}`),
    opaqueToken,
  );
}

export const tokenPrefixes = { development: 'svc_dev_key_', production: 'svc_prod_key_' } as const;

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Another character of a token's alphabet, chosen by the one it replaces: the changed tail stays
 * as random-looking as the token. (A constant tail such as `xxxxxxxx` would be registered with the
 * redactor as a piece of a secret and mask every run of x in the target's answers.)
 */
function otherCharacter(c: string): string {
  const at = TOKEN_ALPHABET.indexOf(c);
  return TOKEN_ALPHABET[(at < 0 ? c.charCodeAt(0) : at + 29) % TOKEN_ALPHABET.length] as string;
}

/**
 * Tokens one edit away from a valid one, as a lookup that compares loosely lets them through: a
 * case-insensitive collation, a column that truncates what it stores or compares, a prefix match.
 */
export const nearMissTokens = {
  'in another letter case': (token: string, prefix: string) => prefix + swapCase(token.slice(prefix.length)),
  'one character short': (token: string) => token.slice(0, -1),
  'with a character more': (token: string) => `${token}0`,
  'with its last 8 characters changed': (token: string) =>
    token.slice(0, -8) + [...token.slice(-8)].map(otherCharacter).join(''),
} as const;
export type NearMissToken = keyof typeof nearMissTokens;
