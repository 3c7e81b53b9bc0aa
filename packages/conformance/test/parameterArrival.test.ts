import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyForms, parameterForms } from '../src/generate/arrivalForms.js';
import { requestParameters } from '../src/spec/requestParameters.js';
import { requestFields } from '../src/spec/requestSchemas.js';
import {
  LAX_CHOICES,
  LAX_RULE,
  LAX_TOKEN,
  type LaxFrameworkChoices,
  runOnLaxServer,
  STRICT_CHOICES,
  startLaxFrameworkServer,
} from './laxFrameworkServer.js';

const workspaceParameter = () => {
  const parameter = requestParameters('listBuckets').find((p) => p.name === 'workspace_id');
  if (!parameter) throw new Error('the spec declares no workspace_id on listBuckets');
  return parameter;
};

/** What a reader that decodes the URL once, trims whitespace and reads Unicode digits sees. */
function readLeniently(encoded: string): string {
  const text = decodeURIComponent(encoded).normalize('NFKC').trim();
  return text.replace(/\p{Nd}/gu, (d) => {
    const code = d.codePointAt(0) ?? 0;
    let start = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    return String((code - start) % 10);
  });
}

describe('PARAM-1 forms, derived from the spec schemas', () => {
  it('derives the number forms for workspace_id from its pattern, and none for an opaque id', () => {
    const numeric = parameterForms(workspaceParameter(), '1042').map((f) => f.kind);
    expect(numeric).toContain('its digits in Arabic-Indic');
    expect(numeric).toContain('given twice');
    const restore = requestParameters('getCloudVmSnapshotRestore').find((p) => p.in === 'path');
    expect(restore?.name).toBe('restore_id');
    const forms = parameterForms(restore as NonNullable<typeof restore>, 'rst-2b81c4d0');
    const opaque = forms.map((f) => f.kind);
    expect(opaque.some((kind) => /digits|2\^32/.test(kind))).toBe(false);
    // Opaque: in another letter case, another identifier, which must not be served as this one.
    expect(forms.find((f) => f.kind.startsWith('in another letter case'))).toMatchObject({
      reading: 'other',
      encoded: 'RST-2B81C4D0',
    });
    expect(opaque).not.toContain('given twice');
  });

  it('every "same" form of a workspace ID spells that ID; every "other" form is another value (one a wrapping or truncating parser or a second decoding reads as it, or one with a slash)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (n) => {
        const id = String(n);
        for (const form of parameterForms(workspaceParameter(), id)) {
          if (form.kind === 'percent-encoded twice') {
            // Decoded once, as a URL is, it is text that is no number; decoded twice, the ID.
            const once = decodeURIComponent(form.encoded);
            expect(once).not.toMatch(/^[0-9]+$/);
            expect(decodeURIComponent(once)).toBe(id);
            expect(form.reading).toBe('other');
          } else if (form.kind === 'an encoded slash inside') {
            expect(decodeURIComponent(form.encoded).replace('/', '')).toBe(id);
            expect(form.reading).toBe('other');
          } else if (form.kind.startsWith('a fraction added')) {
            // Another number, which truncation (parseInt, an integer cast) folds onto the ID.
            expect(Number(form.encoded)).not.toBe(Number(id));
            expect(Math.trunc(Number(form.encoded))).toBe(Number(id));
            expect(form.reading).toBe('other');
          } else if (form.reading === 'other') {
            const other = BigInt(form.encoded);
            expect(other).not.toBe(n);
            expect(
              BigInt.asUintN(32, other) === BigInt.asUintN(32, n) || BigInt.asUintN(64, other) === n,
            ).toBe(true);
          } else if (form.kind.startsWith('a leading zero')) {
            // The same number in decimal (an octal reading would be another).
            expect(decodeURIComponent(form.encoded)).toBe(`0${id}`);
            expect(BigInt(decodeURIComponent(form.encoded))).toBe(n);
          } else if (!/NUL|twice|first digit/.test(form.kind)) {
            // Decoded once and read leniently, it is the ID itself.
            expect(readLeniently(form.encoded)).toBe(id);
          }
        }
      }),
    );
  });

  it('body forms of any safe integer, negative ones included (bounds are not shown), spell that integer', () => {
    const port = requestFields('updateNatPortForwardingRule').find((f) => f.path[0] === 'external_port');
    if (!port) throw new Error('the NAT rule update lost external_port');
    fc.assert(
      fc.property(
        fc.maxSafeInteger().filter((n) => Math.abs(n) < 2 ** 52),
        (n) => {
          const forms = bodyForms(port, n);
          for (const form of forms) {
            if (form.kind === 'the number plus 2^32') expect(form.means).toBe(n + 2 ** 32);
            else if (form.sent === true) expect(form.means).toBe(1);
            else if (form.json !== undefined) {
              // Another JSON spelling of the number itself, which JSON.parse reads as it.
              expect(form.json).not.toBe(String(n));
              expect(JSON.parse(form.json), form.kind).toBe(n);
              expect(form.means).toBe(n);
            }
            // NFKC folds full-width digits to ASCII: every text form is the number, spelled otherwise.
            else expect(Number(String(form.sent).normalize('NFKC').trim()), form.kind).toBe(n);
          }
          expect(forms).toHaveLength(7);
        },
      ),
    );
  });

  it('body forms name the typed value an accepting target must store', () => {
    const fields = requestFields('updateNatPortForwardingRule');
    const port = fields.find((f) => f.path[0] === 'external_port');
    const enabled = fields.find((f) => f.path[0] === 'enabled');
    const protocol = fields.find((f) => f.path[0] === 'protocol');
    if (!port || !enabled || !protocol) throw new Error('the NAT rule update lost a field');
    expect(bodyForms(port, 2223)).toContainEqual({ kind: 'the number as text', sent: '2223', means: 2223 });
    expect(bodyForms(enabled, false)).toContainEqual({
      kind: 'the boolean as text',
      sent: 'false',
      means: false,
    });
    expect(bodyForms(protocol, 'udp').map((f) => f.sent)).toEqual(['UDP', 'Udp', ' udp ']);
    // Each form is another spelling of what it means, except the integer 2^32 away, which is itself.
    for (const form of [...bodyForms(port, 2223), ...bodyForms(enabled, true), ...bodyForms(protocol, 'udp')])
      expect((form.json ?? JSON.stringify(form.sent)) === JSON.stringify(form.means), form.kind).toBe(
        form.kind === 'the number plus 2^32',
      );
    expect(bodyForms(port, 2223).flatMap((f) => (f.json === undefined ? [] : [f.json]))).toEqual([
      '2223.0',
      '2.223e3',
    ]);
  });
});

/** PARAM-1's verdict against an implementation that is not the sandbox, built on one set of choices. */
async function verdictOf(
  choices: LaxFrameworkChoices,
  ruleId = 'PARAM-1',
): Promise<{ state: string; messages: string }> {
  const server = await startLaxFrameworkServer(choices);
  try {
    const outcome = await runOnLaxServer(server.origin, {
      rules: ruleId,
      depth: 5,
      seed: 11,
      concurrency: 2,
    });
    const rule = outcome.rules.find((r) => r.id === ruleId);
    const messages = outcome.tests
      .flatMap((t) => [...t.errors, ...t.failures.map((f) => f.message)])
      .join('\n');
    return { state: rule?.state ?? 'missing', messages };
  } finally {
    await server.close();
  }
}

describe('PARAM-1 against an independent server built on web-framework parsing choices', () => {
  it('judges a NAT rule holding a negative port (bounds are not shown), and ERR-3 and PARAM-1 leave it as they found it', async () => {
    const server = await startLaxFrameworkServer(STRICT_CHOICES);
    try {
      const rulePath = `${server.origin}/v1/networking/vpcs/${LAX_RULE.vpcId}/nat-gateways/${LAX_RULE.natGatewayId}/port-forwarding-rules/${LAX_RULE.ruleId}?workspace_id=1042`;
      const patch = async (body: unknown) => {
        const response = await fetch(rulePath, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${LAX_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return (await response.json()) as Record<string, unknown>;
      };
      const before = await patch({ external_port: -80 });
      expect(before.external_port).toBe(-80);
      const outcome = await runOnLaxServer(server.origin, {
        rules: 'ERR-3,PARAM-1',
        depth: 40,
        seed: 5,
        concurrency: 2,
      });
      const messages = outcome.tests.flatMap((t) => [...t.errors, ...t.failures.map((f) => f.message)]);
      expect(messages).toEqual([]);
      expect(outcome.rules.map((r) => [r.id, r.state])).toEqual([
        ['ERR-3', 'passed'],
        ['PARAM-1', 'passed'],
      ]);
      // Every field as it was; updated_at moves with each restoring update.
      const { updated_at: _was, ...fields } = before;
      const { updated_at: _now, ...after } = await patch({});
      expect(after).toEqual(fields);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['strict', STRICT_CHOICES],
    ['lenient in ways the document allows (Python int(), a lax binder storing typed values)', LAX_CHOICES],
  ])('passes one that is %s', async (_name, choices) => {
    const verdict = await verdictOf(choices);
    expect(verdict.messages).toBe('');
    expect(verdict.state).toBe('passed');
  });

  it('passes one that bounds ports and answers 422 for every body it refuses (FastAPI), on PATCH-1 and PARAM-1 alike', async () => {
    for (const rule of ['PATCH-1', 'PARAM-1']) {
      const verdict = await verdictOf({ ...STRICT_CHOICES, invalidBody: 'fastapi' }, rule);
      expect(verdict.messages, rule).toBe('');
      expect(verdict.state, rule).toBe('passed');
    }
  });

  it('fails no rule of one that refuses an update naming no field with 400 (A-NAT-UPDATE-EMPTY-BODY): what was built on the empty update is no evidence', async () => {
    for (const rule of ['WS-3', 'ERR-2', 'PATCH-1', 'SCOPE-2']) {
      const verdict = await verdictOf({ ...STRICT_CHOICES, emptyUpdate: 'refused' }, rule);
      expect(verdict.state, `${rule}: ${verdict.messages}`).not.toBe('failed');
    }
  });

  it('passes one whose restore reads come from a cache keyed by the URL as sent, while the restore moves on: the same record in another state is no misread', async () => {
    const verdict = await verdictOf({ ...STRICT_CHOICES, restoreReads: 'url-cached' });
    expect(verdict.messages).toBe('');
    expect(verdict.state).toBe('passed');
  });

  it.each([
    ['a 32-bit cast of workspace_id', { workspaceId: 'int32-cast' }, /2\^32.*read as "1042"/],
    ['a body validated on a converted copy and stored raw', { body: 'validated-copy' }, /must be stored as/],
    ['a boolean stored by truthiness', { body: 'truthy' }, /enabled "false".*answered enabled true/],
    ['a NUL in a path id answered 500', { pathIds: 'nul-500' }, /answered 500/],
    [
      'workspace_id checked with isdigit() and read with int()',
      { workspaceId: 'isdigit-int' },
      /superscript.*answered 500|answered 500.*superscript/,
    ],
    [
      'a port checked with isinstance(v, int), which a bool passes',
      { body: 'isinstance' },
      /true for 1.*answered external_port true|answered internal_port true/,
    ],
    [
      'a port kept as the float the JSON parser gave',
      { body: 'float-kept' },
      /answered (external|internal)_port \d+\.0/,
    ],
  ] as const)('fails one with %s', async (_name, change, message) => {
    const verdict = await verdictOf({ ...LAX_CHOICES, ...change });
    expect(verdict.state).toBe('failed');
    expect(verdict.messages).toMatch(message);
  });
});

describe('REC-1 against the same independent server', () => {
  it('passes records that carry the ids they were found by, with timestamps in order', async () => {
    expect((await verdictOf(LAX_CHOICES, 'REC-1')).state).toBe('passed');
  });

  it("fails a restore answered under its row's primary key", async () => {
    const verdict = await verdictOf({ ...LAX_CHOICES, recordIds: 'row-ids' }, 'REC-1');
    expect(verdict.state).toBe('failed');
    expect(verdict.messages).toMatch(/restore_id is "7"/);
  });
});
