import { describe, expect, it } from 'vitest';
import { createSecretRedactor } from '../src/secrets/secretRedactor.js';
import { proxySecrets } from '../src/transport/proxyAgents.js';

describe('proxySecrets: what of a proxy URL the redactor masks', () => {
  it('masks long credentials alone and together, in the forms a proxy or its errors could show', () => {
    const redactor = createSecretRedactor(proxySecrets('http://gateway-user:s3cret%2Fpass@proxy.corp:3128'));
    const basic = Buffer.from('gateway-user:s3cret/pass').toString('base64');
    const text = redactor.redact(
      `user gateway-user, password s3cret/pass, Proxy-Authorization: Basic ${basic}`,
    );
    for (const secret of ['gateway-user', 's3cret/pass', 's3cret%2Fpass', basic])
      expect(text).not.toContain(secret);
  });

  it('masks a short password only beside its user: a one-letter one must not mask every letter of a report', () => {
    const redactor = createSecretRedactor(proxySecrets('http://u:p@proxy.corp:3128'));
    expect(redactor.redact('no rule was run; /object-storage/buckets')).toBe(
      'no rule was run; /object-storage/buckets',
    );
    expect(redactor.redact('proxy http://u:p@proxy.corp:3128 refused')).not.toContain('u:p@');
    expect(redactor.redact(`Basic ${Buffer.from('u:p').toString('base64')}`)).not.toContain(
      Buffer.from('u:p').toString('base64'),
    );
  });

  it('has nothing to mask without credentials or without a proxy', () => {
    expect(proxySecrets('http://proxy.corp:3128')).toEqual([]);
    expect(proxySecrets(undefined)).toEqual([]);
  });
});
