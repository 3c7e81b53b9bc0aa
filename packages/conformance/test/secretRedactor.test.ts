import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretRedactor, secretForms } from '../src/secrets/secretRedactor.js';

/** Text a report could hold around a secret: JSON, XML, URLs, headers. */
const surrounding = fc.string({ unit: 'binary-ascii', maxLength: 40 });
const secret = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 64 });

describe('secret redactor', () => {
  it('property: no form (raw, URL-encoded, JSON/XML-escaped, base64) of any secret of any length survives', () => {
    fc.assert(
      fc.property(
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        surrounding,
        surrounding,
        (secrets, before, after) => {
          const redactor = createSecretRedactor(secrets);
          const text = secrets
            .flatMap((s) => secretForms(s).map((form) => `${before}${form}${after}`))
            .join('\n');
          const redacted = redactor.redact(text);
          for (const s of secrets)
            for (const form of secretForms(s)) expect(redacted.includes(form)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('masks a secret inside a longer base64 text at any alignment (Basic credentials, encoded blobs)', () => {
    const token = 'svc_dev_key_FAKE06';
    const redactor = createSecretRedactor([token]);
    for (const prefix of ['', 'u', 'us', 'user:'])
      for (const suffix of ['', ':', ':pw', 'xyz']) {
        const encoded = Buffer.from(`${prefix}${token}${suffix}`).toString('base64');
        expect(redactor.redact(`Basic ${encoded}`)).not.toBe(`Basic ${encoded}`);
      }
  });

  it('masks one-character secrets too, with a mask that cannot hide or rebuild them', () => {
    const redactor = createSecretRedactor(['e', '[']);
    const redacted = redactor.redact('{"state":"passed","list":[1]}');
    expect(redacted).not.toContain('e');
    expect(redacted).not.toContain('[');
    expect(redacted).toContain('***');
  });

  it('learns secrets as they are added and leaves text without them untouched', () => {
    const redactor = createSecretRedactor();
    expect(redactor.redact('plain text')).toBe('plain text');
    redactor.add('Rv7kQ9x');
    expect(redactor.redact('revoked Rv7kQ9x here')).toBe('revoked [redacted] here');
    expect(redactor.secrets).toEqual(['Rv7kQ9x']);
  });

  it("property: no run of 8 or more characters of a token's random part, a letter among them, survives, wherever it is cut, as sent or reversed", () => {
    const body = fc.string({
      unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789'),
      minLength: 16,
      maxLength: 48,
    });
    fc.assert(
      fc.property(
        fc.constantFrom('svc_dev_key_', 'svc_prod_key_'),
        body,
        fc.nat(),
        fc.nat(),
        surrounding,
        fc.constantFrom<[string, (text: string) => string]>(
          ['as sent', (text) => text],
          ['reversed', (text) => [...text].reverse().join('')],
        ),
        (prefix, tokenBody, from, size, around, [, echoed]) => {
          const start = from % (tokenBody.length - 7);
          const piece = echoed(tokenBody.slice(start, start + 8 + (size % (tokenBody.length - start - 7))));
          const redacted = createSecretRedactor([`${prefix}${tokenBody}`]).redact(
            `${around}${piece}${around} ${piece}`,
          );
          const form = echoed(tokenBody);
          for (let i = 0; i + 8 <= form.length; i++) {
            const run = form.slice(i, i + 8);
            if (/\D/.test(run) && new Set(run).size > 2) expect(redacted.includes(run), redacted).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('masks pieces of a token only: the public prefix, shorter pieces and other text stay as they are', () => {
    // An obviously fake token: its random part is 23 characters, FAKE0not1a2real3token4X.
    const redactor = createSecretRedactor(['svc_dev_key_FAKE0not1a2real3token4X']);
    expect(redactor.redact('tokens start with svc_dev_key_; short piece not1a2r')).toBe(
      'tokens start with svc_dev_key_; short piece not1a2r',
    );
    expect(redactor.redact('tail l3token4X and head FAKE0not!')).toBe('tail [redacted] and head [redacted]!');
  });
});

describe('pieces that tell nothing of a token', () => {
  it('a run of digits from a hex tail is no piece: a number in a JSON report stays a number, and the report stays JSON', () => {
    const token = 'svc_dev_key_FAKE4294968338notAreal0token';
    const redactor = createSecretRedactor([token]);
    const har = JSON.stringify({ time: 0.6742949683380025, workspace_id: '4294968338', detail: 'not found' });
    expect(redactor.redact(har)).toBe(har);
    expect(JSON.parse(redactor.redact(har))).toEqual(JSON.parse(har));
    // A piece with a letter in it is still masked, and the whole token always is.
    expect(redactor.redact(`tail 8338notAreal and ${token}`)).toBe('tail [redacted] and [redacted]');
  });

  it('a run of one or two characters inside a token (zeros, a changed tail) is not masked in ordinary text', () => {
    const redactor = createSecretRedactor(['svc_dev_key_FAKE5x00000000xyxyxyxy']);
    expect(redactor.redact('id 000000000042, detail xyxyxyxyxyxyxyxy')).toBe(
      'id 000000000042, detail xyxyxyxyxyxyxyxy',
    );
    expect(redactor.redact('tail E5x00000000xyx')).toBe('tail [redacted]');
  });
});

describe('re-encoded echoes of a token', () => {
  it('masks a token a target sends back reversed, in one case, %XX- or hex-encoded, as \\u escapes, HTML entities or UTF-16', () => {
    const token = 'svc_dev_key_FAKE9not8a7real6tokenZ';
    const redactor = createSecretRedactor([token]);
    const bytes = [...Buffer.from(token)];
    const hex = (n: number, width = 2) => n.toString(16).padStart(width, '0');
    const echoes = [
      [...token].reverse().join(''),
      token.toUpperCase(),
      token.toLowerCase(),
      bytes.map((b) => `%${hex(b).toUpperCase()}`).join(''),
      bytes.map((b) => hex(b)).join(''),
      [...token].map((c) => `\\u${hex(c.charCodeAt(0), 4)}`).join(''),
      [...token].map((c) => `&#${c.charCodeAt(0)};`).join(''),
      [...token].map((c) => `&#x${hex(c.charCodeAt(0))};`).join(''),
      [...token].map((c) => `${c}\u0000`).join(''),
      JSON.stringify([...token].map((c) => `${c}\u0000`).join('')),
    ];
    for (const echo of echoes) {
      const text = redactor.redact(`detail: ${echo} (end)`);
      expect(text, echo).toContain('[redacted]');
      expect(text).not.toContain(echo);
      expect(text).toMatch(/^detail: .* \(end\)$/s);
    }
  });
});

describe('redacting the head of a long answer', () => {
  const token = 'svc_dev_key_FAKE9not8a7real6tokenZ';
  const forms = secretForms(token);

  it('property: the head is a prefix of the whole text redacted, at most `limit` long, with no form or piece of the token, wherever the token sits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary-ascii', maxLength: 120 }),
        fc.constantFrom(...forms),
        fc.nat({ max: 160 }),
        fc.integer({ min: 1, max: 120 }),
        (filler, form, at, limit) => {
          const position = at % (filler.length + 1);
          const text = `${filler.slice(0, position)}${form}${filler.slice(position)}${filler}`;
          const redactor = createSecretRedactor([token]);
          const head = redactor.redactHead(text, limit);
          if (text.length > limit) expect(head.length).toBeLessThanOrEqual(limit);
          expect(redactor.redact(text).startsWith(head)).toBe(true);
          for (const shown of forms) if (shown.length >= 8) expect(head).not.toContain(shown);
          const random = 'FAKE9not8a7real6tokenZ';
          for (let i = 0; i + 8 <= random.length; i++) expect(head).not.toContain(random.slice(i, i + 8));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a token straddling the cut is masked whole; the head of a long clean text is its first characters', () => {
    const redactor = createSecretRedactor([token]);
    const straddling = `${'x'.repeat(95)}${token} and more`;
    expect(redactor.redactHead(straddling, 100)).toBe(`${'x'.repeat(95)}[redacted]`.slice(0, 100));
    const huge = `{"detail":"${'y'.repeat(4 * 1024 * 1024)}"}`;
    expect(redactor.redactHead(huge, 1000)).toBe(huge.slice(0, 1000));
  });
});

describe('token-shaped text the run never registered', () => {
  /** RFC 6750 token characters, the alphabet a token's random part is written in. */
  const tokenBody = fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'),
    minLength: 1,
    maxLength: 48,
  });
  const prefix = fc.constantFrom('svc_dev_key_', 'svc_prod_key_', 'SVC_PROD_KEY_', 'Svc_Dev_Key_');
  /** What a body, a header or a message puts around a value. */
  const delimiter = fc.constantFrom(' ', '"', "'", ',', ':', '<', '>', '\n', '&', ';', ')', ']', '}');

  it("property: a token of either environment a target sends (another caller's, a leaked one) keeps its prefix only, with or without secrets registered", () => {
    fc.assert(
      fc.property(
        prefix,
        tokenBody,
        fc.constantFrom('', 'id='),
        delimiter,
        fc.boolean(),
        (shownPrefix, body, before, after, registered) => {
          const redactor = createSecretRedactor(registered ? ['svc_dev_key_FAKE1registered2NotAreal'] : []);
          const text = `detail${before}${shownPrefix}${body}${after}tail`;
          const redacted = redactor.redact(text);
          expect(redacted).toBe(`detail${before}${shownPrefix}[redacted]${after}tail`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('masks percent-encoded and JSON-escaped tokens whole, and leaves a bare prefix (documentation, messages) as it is', () => {
    const redactor = createSecretRedactor();
    expect(redactor.redact('GET /x?token=svc_prod_key_FAKE%2Bnot%2FAreal&y=1')).toBe(
      'GET /x?token=svc_prod_key_[redacted]&y=1',
    );
    expect(redactor.redact('{"t":"svc_dev_key_FAKE\\/notAreal=="}')).toBe('{"t":"svc_dev_key_[redacted]"}');
    expect(redactor.redact('development tokens start with `svc_dev_key_`.')).toBe(
      'development tokens start with `svc_dev_key_`.',
    );
    expect(redactor.redact('svc_dev_key_[redacted] stays')).toBe('svc_dev_key_[redacted] stays');
  });

  it('the head of a text holding an unregistered token across the cut shows none of it', () => {
    const redactor = createSecretRedactor();
    const text = `${'x'.repeat(90)}svc_prod_key_FAKEforeignNotAreal0123456789 and more`;
    const head = redactor.redactHead(text, 100);
    expect(head).toBe(`${'x'.repeat(90)}svc_prod_key_[redacted] and more`.slice(0, 100));
    expect(head).not.toMatch(/svc_prod_key_F/);
  });
});

describe('encoded tokens the run never registered', () => {
  it('property: a base64 text (either alphabet) holding a token of either environment anywhere is masked, whatever surrounds the token', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary-ascii', maxLength: 20 }),
        fc.constantFrom('svc_dev_key_', 'svc_prod_key_'),
        fc.string({
          unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
          minLength: 1,
          maxLength: 40,
        }),
        fc.string({ unit: 'binary-ascii', maxLength: 20 }),
        fc.constantFrom<BufferEncoding>('base64', 'base64url'),
        (before, prefix, body, after, encoding) => {
          const encoded = Buffer.from(`${before}${prefix}${body}${after}`, 'latin1').toString(encoding);
          const redacted = createSecretRedactor().redact(`Authorization: Basic ${encoded}\n`);
          for (let offset = 0; offset < 4; offset++)
            expect(Buffer.from(redacted.slice(21 + offset), 'base64').toString('latin1')).not.toMatch(
              /svc_(?:prod|dev)_key_[A-Za-z0-9]/,
            );
          expect(redacted).toBe('Authorization: Basic [redacted]\n');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves ordinary long identifiers and base64 without a token as they are', () => {
    const redactor = createSecretRedactor();
    const text =
      'op-3f2a9c1e4b5d6f708192a3b4c5d6e7f8 c2VjcmV0IHN0b3JlIGxpc3Q= 2026-11-27T21:40:00.123Z 550e8400-e29b-41d4-a716-446655440000';
    expect(redactor.redact(text)).toBe(text);
  });
});
