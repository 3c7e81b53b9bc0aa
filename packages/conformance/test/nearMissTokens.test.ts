import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearMissTokens } from '../src/generate/authorization.js';
import { createSecretRedactor } from '../src/secrets/secretRedactor.js';

const randomPart = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  minLength: 16,
  maxLength: 40,
});

describe('AUTH-2 near-miss tokens', () => {
  it('property: the changed tail differs from the token at each of its 8 characters and keeps the token alphabet', () => {
    fc.assert(
      fc.property(randomPart, (body) => {
        const token = `svc_dev_key_${body}`;
        const changed = nearMissTokens['with its last 8 characters changed'](token);
        expect(changed.slice(0, -8)).toBe(token.slice(0, -8));
        for (let i = 1; i <= 8; i++) expect(changed.at(-i)).not.toBe(token.at(-i));
        expect(changed.slice(-8)).toMatch(/^[A-Za-z0-9]{8}$/);
        // As varied as the tail it replaces (a constant tail would be a redactor piece matching filler).
        if (/^[A-Za-z0-9]{8}$/.test(token.slice(-8)))
          expect(new Set(changed.slice(-8)).size).toBe(new Set(token.slice(-8)).size);
      }),
    );
  });

  it('registering the near misses with the redactor leaves runs of filler in an answer alone', () => {
    const token = 'svc_dev_key_FAKE4near5miss6tokenTUm';
    const redactor = createSecretRedactor([token]);
    redactor.add(...Object.values(nearMissTokens).map((make) => make(token, 'svc_dev_key_')));
    const filler = `{"detail":"${'x'.repeat(64)}"}`;
    expect(redactor.redact(filler)).toBe(filler);
  });
});
