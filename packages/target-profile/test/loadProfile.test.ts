import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createProfileRedactor,
  expandEnvironmentReferences,
  loadProfileFile,
  MissingEnvironmentVariableError,
  ProfileFileError,
  ProfileValidationError,
  parseProfileText,
  ShortSecretError,
} from '../src/index.js';

const minimal = {
  name: 'unit',
  baseUrl: 'http://127.0.0.1:4010/v1',
  environment: 'development',
  identities: { full: { token: 'svc_dev_key_unit_full', scopes: 'all', workspaces: 'all' } },
  workspaces: { primary: '1042', secondary: '1043' },
  billing: { skuCode: 'cloud-vm-standard-2' },
};

const directory = mkdtempSync(join(tmpdir(), 'target-profile-test-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('parseProfileText', () => {
  it('reads JSON and YAML alike', () => {
    expect(parseProfileText(JSON.stringify(minimal), 'unit.json', { env: {} }).name).toBe('unit');
    const yaml =
      'name: y\nbaseUrl: https://api.example.invalid/v1\nenvironment: production\nidentities:\n  a: { token: svc_prod_key_unit_a, scopes: [vm.read], workspaces: ["7"] }\nworkspaces: { primary: "7", secondary: "8" }\nbilling: { skuCode: s }\nconcurrency: 2\nstrict: true\nmaxResponseBytes: 4096\n';
    const profile = parseProfileText(yaml, 'unit.yaml', { env: {} });
    expect(profile.identities.a?.scopes).toEqual(['vm.read']);
    expect([profile.concurrency, profile.strict, profile.maxResponseBytes]).toEqual([2, true, 4096]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
  it('expands ${NAME} from the given environment and hands every value to the redactor', () => {
    const redactor = createProfileRedactor();
    const profile = parseProfileText(
      JSON.stringify({
        ...minimal,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
        baseUrl: 'https://${UNIT_HOST}/v1',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
        identities: { full: { token: '${UNIT_TOKEN}', scopes: 'all', workspaces: 'all' } },
      }),
      'unit.json',
      { env: { UNIT_HOST: 'staging.internal.example', UNIT_TOKEN: 'svc_dev_key_from_env' }, redactor },
    );
    expect(profile.identities.full?.token).toBe('svc_dev_key_from_env');
    expect(profile.baseUrl).toBe('https://staging.internal.example/v1');
    expect(redactor.redact('host staging.internal.example, token svc_dev_key_from_env')).toBe(
      'host [redacted], token [redacted]',
    );
  });

  it('names a missing variable and its field, without any value', () => {
    const error = thrown(() =>
      parseProfileText(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
        JSON.stringify({ ...minimal, revokedToken: '${UNIT_UNSET}' }),
        'unit.json',
        { env: { OTHER: 'svc_dev_key_must_not_show', UNIT_UNSET: '' } },
      ),
    );
    expect(error).toBeInstanceOf(MissingEnvironmentVariableError);
    expect(error.message).toBe(
      'revokedToken: environment variable UNIT_UNSET is not set. Export it (or remove the field) and run again.',
    );
  });

  it('keeps token values and variable values out of validation errors', () => {
    const error = thrown(() =>
      parseProfileText(
        JSON.stringify({
          ...minimal,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
          baseUrl: 'https://user:${UNIT_PASSWORD}@host.example/api',
          identities: { full: { token: 'svc_prod_key_unit_wrong', scopes: 'all', workspaces: 'all' } },
        }),
        'unit.json',
        { env: { UNIT_PASSWORD: 'pw7-unit-password' } },
      ),
    );
    expect(error).toBeInstanceOf(ProfileValidationError);
    expect((error as ProfileValidationError).problems).toEqual([
      'baseUrl: "https://user:[redacted]@host.example/api" must be an http(s) URL ending with /v1 (the version is part of the base address)',
    ]);
    expect(error.message).not.toContain('pw7-unit-password');
    expect(error.message).not.toContain('svc_prod_key_unit_wrong');
  });

  it('keeps tokens out of a syntax error', () => {
    const error = thrown(() =>
      parseProfileText('token: svc_dev_key_in_broken_file\nname: [unclosed\n', 'broken.yaml'),
    );
    expect(error).toBeInstanceOf(ProfileFileError);
    expect(error.message).toMatch(
      /^broken\.yaml is not valid YAML or JSON: .* at line \d+, column \d+\. Fix the syntax there and run again\.$/,
    );
    expect(error.message).not.toContain('svc_dev_key_in_broken_file');
  });

  it('refuses a document that is not a mapping, a self-referring alias and absurd nesting', () => {
    expect(() => parseProfileText('- a\n- b\n', 'list.yaml')).toThrow(
      /^list\.yaml must contain a mapping \(name, baseUrl, environment, identities, \.\.\.\)/,
    );
    expect(() => parseProfileText('', 'empty.yaml')).toThrow(/empty\.yaml must contain a mapping/);
    expect(() => parseProfileText('name: x\nidentities: &self { loop: *self }\n', 'cyclic.yaml')).toThrow(
      /^cyclic\.yaml: identities\.loop refers to itself through a YAML alias/,
    );
    expect(() => parseProfileText(`name: ${'['.repeat(40)}${']'.repeat(40)}\n`, 'deep.yaml')).toThrow(
      /^deep\.yaml: name(\[0\])+ is nested more than 32 levels deep/,
    );
  });
});

describe('loadProfileFile', () => {
  it('reads a file and parses it', () => {
    const path = join(directory, 'p.json');
    writeFileSync(path, JSON.stringify(minimal));
    expect(loadProfileFile(path, { env: {} })).toEqual(minimal);
  });

  it('says why a file cannot be read, and carries the code for the command to word its advice', () => {
    const missing = thrown(() => loadProfileFile(join(directory, 'missing.yaml')));
    expect(missing).toBeInstanceOf(ProfileFileError);
    expect((missing as ProfileFileError).code).toBe('ENOENT');
    expect(missing.message).toBe(
      `Cannot read the profile ${join(directory, 'missing.yaml')} (no such file or directory).`,
    );
    const folder = thrown(() => loadProfileFile(directory));
    expect((folder as ProfileFileError).code).toBe('EISDIR');
    expect(folder.message).toMatch(/\(it is a directory, not a file\)\.$/);
  });
});

describe('expandEnvironmentReferences', () => {
  it('expands in nested strings and lists and reports the field path of an unset variable', () => {
    const expanded: string[] = [];
    // biome-ignore lint/suspicious/noTemplateCurlyInString: literal ${...} references, not templates
    const value = { a: ['x-${ONE}-${TWO}', 3], b: { c: '${ONE}' } };
    expect(expandEnvironmentReferences(value, { ONE: 'value-one', TWO: 'value-two' }, '', expanded)).toEqual({
      a: ['x-value-one-value-two', 3],
      b: { c: 'value-one' },
    });
    expect(expanded).toEqual(['value-one', 'value-two', 'value-one']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
    expect(() => expandEnvironmentReferences({ a: [{ b: '${NOPE}' }] }, {})).toThrow(
      /^a\[0\]\.b: environment variable NOPE is not set/,
    );
    // A value too short to mask safely is refused, naming the variable and its length, never the value.
    let short: unknown;
    try {
      expandEnvironmentReferences(
        { w: `$` + `{WS}`, t: `$` + `{TOKEN}` },
        { WS: '1042', TOKEN: 'svc_dev_key_long_enough' },
      );
    } catch (error) {
      short = error;
    }
    expect(short).toBeInstanceOf(ShortSecretError);
    expect((short as ShortSecretError).references).toEqual([{ variable: 'WS', field: 'w', length: 4 }]);
    expect((short as Error).message).toMatch(
      /^w: the value of WS has 4 characters\. .*shorter than 8 characters/,
    );
    expect((short as Error).message).not.toContain('1042');
    // Every unset variable at once, each with its field, and no value of a set one.
    let all: unknown;
    try {
      const references = { a: '$' + '{FIRST}', b: ['$' + '{SECOND}', '$' + '{SET}'], c: '$' + '{THIRD}' };
      expandEnvironmentReferences(references, { SET: 'v4lue' });
    } catch (error) {
      all = error;
    }
    expect(all).toBeInstanceOf(MissingEnvironmentVariableError);
    const missing = all as MissingEnvironmentVariableError;
    expect(missing.missing).toEqual([
      { variable: 'FIRST', field: 'a' },
      { variable: 'SECOND', field: 'b[0]' },
      { variable: 'THIRD', field: 'c' },
    ]);
    expect(missing.message).toBe(
      '3 environment variables are not set: FIRST (a), SECOND (b[0]), THIRD (c). Export them (or remove the fields) and run again.',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} reference, not a template
    expect(() => expandEnvironmentReferences({ svc_dev_key_as_key: '${NOPE}' }, {})).toThrow(
      /^\(a key that looks like a token\): environment variable NOPE/,
    );
  });
});
