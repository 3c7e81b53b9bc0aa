import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './sandboxHarness.js';

interface RawAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
}

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
}

let h: Harness;
let agent: Agent;
let internalErrors = 0;
beforeAll(async () => {
  h = await startHarness({ onInternalError: () => internalErrors++ });
  agent = new Agent({ keepAlive: true, maxSockets: 8 });
});
afterAll(async () => {
  agent.destroy();
  await h.close();
});

function send(target: URL, fuzz: FuzzRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // An explicit length: without it node streams a GET/HEAD/DELETE body raw, as the next request.
    const headers = fuzz.body
      ? { ...fuzz.headers, 'content-length': String(fuzz.body.length) }
      : fuzz.headers;
    const req = request(
      { host: target.hostname, port: target.port, method: fuzz.method, path: fuzz.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(fuzz.body);
  });
}

/** node:http refuses request lines with spaces or non-ASCII; everything else is sent as generated. */
const escapeForRequestLine = (path: string) => path.replace(/[^!-~]/g, (char) => encodeURIComponent(char));

const urlSafe = fc
  .stringMatching(/^[!-~]{0,24}$/)
  .map((text) => text.replaceAll('?', '%3F').replaceAll('#', '%23'));
const segment = fc.oneof(
  fc.constantFrom(
    'vm-gpu-0001',
    'vm-gpu-0101',
    'rst-0001',
    'vpc-0001',
    'natgw-0001',
    'pfr-0001',
    'rip-0001',
    '',
    '..',
    '%',
    '%zz',
    '%E2%82',
    '%00',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  urlSafe,
);
const path = fc.oneof(
  fc.constantFrom(
    '/v1/billing/resource-eligibility',
    '/v1/object-storage/buckets',
    '/v1/compute/cloud-vms',
    '/',
    '/v1',
    '/v1/',
    '/v2/object-storage/buckets',
  ),
  segment.map((id) => `/v1/compute/gpu-vms/${id}/backups/enable`),
  segment.map((id) => `/v1/compute/gpu-vms/${id}`),
  segment.map((id) => `/v1/compute/cloud-vm-snapshots/restores/${id}`),
  fc
    .tuple(segment, segment, segment)
    .map(([a, b, c]) => `/v1/networking/vpcs/${a}/nat-gateways/${b}/port-forwarding-rules/${c}`),
  segment.map((id) => `/v1/networking/reserved-ips/${id}`),
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
);
const workspaceValue = fc.oneof(
  fc.constantFrom(
    '1042',
    '1043',
    '1044',
    '0',
    '-1',
    '1e3',
    '1042.0',
    ' 1042',
    '%31%30%34%32',
    '%zz',
    '',
    '99999999999999999999999',
  ),
  urlSafe.map((text) => text.replaceAll('&', '%26')),
);
const query = fc.oneof(
  fc.constant(''),
  workspaceValue.map((value) => `?workspace_id=${value}`),
  fc.tuple(workspaceValue, workspaceValue).map(([a, b]) => `?workspace_id=${a}&workspace_id=${b}`),
  fc.tuple(workspaceValue, urlSafe).map(([value, extra]) => `?workspace_id=${value}&${extra}`),
  urlSafe.map((text) => `?${text}`),
);
const headerValue = fc.stringMatching(/^[ -~]{0,40}$/).map((text) => text.trim());

const bodyArbitrary = (): fc.Arbitrary<Buffer | undefined> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 4,
      arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
    },
    {
      weight: 3,
      arbitrary: fc
        .record(
          {
            sku_code: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
            retention_days: fc.oneof(fc.integer(), fc.string(), fc.double()),
            schedule: fc.oneof(fc.object(), fc.string(), fc.constant(null)),
            protocol: fc.oneof(fc.constantFrom('tcp', 'udp', 'icmp'), fc.integer()),
            external_port: fc.oneof(fc.integer(), fc.string()),
            enabled: fc.oneof(fc.boolean(), fc.string()),
          },
          { requiredKeys: [] },
        )
        .map((value) => Buffer.from(JSON.stringify(value))),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }).map((text) => Buffer.from(text)) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          '{"__proto__":{"polluted":true}}',
          '{"constructor":{"prototype":{"polluted":true}}}',
          '{"schedule":{"__proto__":{"hour":1}}}',
          '{"\\u005f_proto__":{"polluted":true}}',
          '[{"prototype":1}]',
          '{"a":',
          '{"a":1}}',
          "{'a':1}",
          '\uFEFF{}',
          'null',
          '[]',
          '"text"',
          '1e309',
          '{"retention_days":1e400}',
        )
        .map((text) => Buffer.from(text)),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: 3000 })
        .map((depth) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 65_000, max: 300_000 })
        .map((size) => Buffer.from(`{"note":"${'x'.repeat(size)}"}`)),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
        Buffer.from('{"a":"\ud800"}', 'utf16le'),
      ),
    },
  );

const fuzzRequest = (tokens: readonly string[]): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE') },
        { weight: 2, arbitrary: fc.constantFrom('PUT', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND') },
        { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,8}$/) },
      ),
      path,
      query,
      authorization: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom(...tokens).map((token) => `Bearer ${token}`),
        fc.constantFrom(...tokens).map((token) => `Basic ${Buffer.from(token).toString('base64')}`),
        headerValue.map((value) => `Bearer ${value}`),
        headerValue,
      ),
      contentType: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ),
        headerValue,
      ),
      idempotencyKey: fc.oneof(fc.constant(undefined), fc.uuid(), headerValue, fc.constant('k'.repeat(300))),
      extraHeader: fc.option(fc.tuple(fc.stringMatching(/^x-[a-z]{1,10}$/), headerValue)),
      body: bodyArbitrary(),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      if (r.authorization !== undefined) headers.authorization = r.authorization;
      if (r.contentType !== undefined) headers['content-type'] = r.contentType;
      if (r.idempotencyKey !== undefined) headers['x-idempotency-key'] = r.idempotencyKey;
      if (r.extraHeader) headers[r.extraHeader[0]] = r.extraHeader[1];
      const fuzz: FuzzRequest = {
        method: r.method,
        path: escapeForRequestLine(`${r.path}${r.query}`),
        headers,
        body: r.body,
      };
      // Counterexamples print a body preview, not 300 KB of bytes.
      return Object.assign(fuzz, {
        [fc.toStringMethod]: () =>
          JSON.stringify({
            ...fuzz,
            body: r.body
              ? `<${r.body.length} bytes: ${r.body.subarray(0, 80).toString('latin1')}>`
              : undefined,
          }),
      });
    });

describe('fuzz (ERR-3)', () => {
  it('ERR-3: 10,000 generated requests never get a 5xx, always get JSON errors, and the server keeps answering', async () => {
    const target = new URL(h.url);
    const tokens = [
      ...Object.values(h.profile.identities).map((identity) => identity.token),
      h.profile.revokedToken ?? '',
      h.profile.otherEnvironmentToken ?? '',
    ];
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fuzzRequest(tokens), async (fuzz) => {
        sent++;
        const answer = await send(target, fuzz);
        expect(answer.status).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400 && fuzz.method !== 'HEAD') {
          expect(answer.contentType).toBe('application/json');
          expect(typeof (JSON.parse(answer.body) as { detail: unknown }).detail).toBe('string');
        }
      }),
      { numRuns: 10_000, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(internalErrors).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const alive = await h.call('GET', '/object-storage/buckets');
    expect(alive.status).toBe(200);
    // A safety net, not a goal: 10,000 requests take ~15 s alone but far longer on a loaded 2-core CI machine.
  }, 300_000);

  it('answers bytes that are not HTTP with a JSON 400 and keeps serving', async () => {
    const target = new URL(h.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(target.port), target.hostname, () =>
        socket.write('NOT HTTP AT ALL\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain('application/json');
    expect((await h.call('GET', '/object-storage/buckets')).status).toBe(200);
  });
});
