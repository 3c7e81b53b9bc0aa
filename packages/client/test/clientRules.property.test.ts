import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  BaseUrlError,
  BillingBlockedError,
  type ClientLogEntry,
  createCloudClient,
  NetworkError,
  TokenEnvironmentError,
  WorkspaceIdError,
} from '../src/index.js';
import {
  acceptance,
  devBaseUrl,
  devToken,
  environments,
  hang,
  json,
  networkFailure,
  prodBaseUrl,
  prodToken,
  type SentRequest,
  stubFetch,
} from './stubFetch.js';

const preflightPath = '/v1/billing/resource-eligibility';
const createPath = '/v1/compute/cloud-vms';
const isPreflight = (sent: SentRequest) => sent.path === preflightPath;

/** Every kind of preflight answer issue 3 lists, and a few more. */
type PreflightAnswer =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'text'; status: number; text: string }
  | { kind: 'network-error' }
  | { kind: 'timeout' };

const allowedValues = fc.constantFrom<unknown>(true, false, 'true', 'false', 1, 0, null, [], {}, 'yes');
const decisionBodies = fc.oneof(
  allowedValues.map((allowed) => ({ allowed })),
  fc.record({ allowed: allowedValues, reason: fc.string() }),
  fc.constantFrom<unknown>({}, { Allowed: true }, [], null, true, 'allowed', [{ allowed: true }]),
);
const preflightAnswers: fc.Arbitrary<PreflightAnswer> = fc.oneof(
  fc.record({ kind: fc.constant('json' as const), status: fc.constantFrom(200, 201), body: decisionBodies }),
  fc.record({
    kind: fc.constant('json' as const),
    status: fc.constantFrom(500, 502, 503, 400, 401, 403, 404),
    body: decisionBodies,
  }),
  fc.record({
    kind: fc.constant('text' as const),
    status: fc.constantFrom(200, 503),
    text: fc.constantFrom('', 'OK', '<html>busy</html>', '{"allowed": tru'),
  }),
  fc.constant({ kind: 'network-error' as const }),
  fc.constant({ kind: 'timeout' as const }),
);

function answerPreflight(answer: PreflightAnswer, signal: AbortSignal): Response | Promise<Response> {
  switch (answer.kind) {
    case 'json':
      return json(answer.status, answer.body);
    case 'text':
      return new Response(answer.text, { status: answer.status, headers: { 'Content-Type': 'text/plain' } });
    case 'network-error':
      return networkFailure();
    case 'timeout':
      return hang(signal);
  }
}

const workspaceIds = fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String);
const createBodies = fc.record(
  {
    name: fc.string(),
    plan_id: fc.string({ minLength: 1 }),
    template_id: fc.string(),
    os_distro: fc.constantFrom('ubuntu', 'debian'),
    os_type: fc.constant('linux'),
    cpu: fc.integer({ min: 1, max: 64 }),
    ram_mb: fc.integer({ min: 512, max: 262_144 }),
  },
  { requiredKeys: ['plan_id'] },
);

describe('billing guard', () => {
  test('BILL-1, BILL-2, BILL-3, BILL-4: the create is sent iff the preflight just before it, for the same workspace, answered a 2xx JSON decision with `allowed === true`', async () => {
    await fc.assert(
      fc.asyncProperty(
        preflightAnswers,
        workspaceIds,
        fc.option(workspaceIds, { nil: undefined }),
        createBodies,
        fc.boolean(),
        async (answer, clientWorkspace, callWorkspace, body, viaRawApi) => {
          // Each fetch gets a real signal: the client's timeout aborts a hung preflight.
          const fetch = stubFetch();
          const handler = async (request: Request) => {
            const url = new URL(request.url);
            if (url.pathname === preflightPath) {
              await fetch(request.clone());
              return answerPreflight(answer, request.signal);
            }
            await fetch(request);
            return json(202, acceptance);
          };
          const client = createCloudClient({
            environments,
            token: devToken,
            workspaceId: clientWorkspace,
            fetch: handler,
            timeoutMs: 20,
            retry: { attempts: 1 },
          });
          const workspace = callWorkspace ?? clientWorkspace;
          const call = viaRawApi
            ? client.api.POST('/compute/cloud-vms', {
                params: callWorkspace === undefined ? {} : { query: { workspace_id: callWorkspace } },
                body,
              })
            : client.createCloudVm(body, callWorkspace === undefined ? {} : { workspaceId: callWorkspace });
          const outcome = await call.then(
            () => 'sent' as const,
            (error: unknown) => error,
          );

          const allowed =
            answer.kind === 'json' &&
            answer.status < 300 &&
            typeof answer.body === 'object' &&
            answer.body !== null &&
            (answer.body as { allowed?: unknown }).allowed === true;
          const preflights = fetch.sent.filter(isPreflight);
          const creates = fetch.sent.filter((s) => s.path === createPath);
          // Exactly one preflight, for the same workspace, and it came first.
          expect(preflights).toHaveLength(1);
          expect(fetch.sent[0]?.path).toBe(preflightPath);
          expect(preflights[0]?.url.searchParams.get('workspace_id')).toBe(workspace);
          if (allowed) {
            expect(outcome).toBe('sent');
            expect(creates).toHaveLength(1);
            expect(creates[0]?.url.searchParams.get('workspace_id')).toBe(workspace);
            // BILL-4: the create carries the caller's body byte for byte and no billing state.
            expect(creates[0]?.body).toBe(JSON.stringify(body));
            const headerNames: string[] = [];
            creates[0]?.headers.forEach((_value, name) => {
              headerNames.push(name);
            });
            expect(headerNames.sort()).toEqual(
              ['authorization', 'content-type', 'user-agent', 'x-idempotency-key'].sort(),
            );
          } else {
            expect(creates).toHaveLength(0);
            expect(outcome).toBeInstanceOf(BillingBlockedError);
            const expectedReason =
              answer.kind === 'network-error' || answer.kind === 'timeout' || answer.status >= 300
                ? 'unavailable'
                : answer.kind === 'json' &&
                    typeof answer.body === 'object' &&
                    answer.body !== null &&
                    typeof (answer.body as { allowed?: unknown }).allowed === 'boolean'
                  ? 'denied'
                  : 'malformed';
            expect((outcome as BillingBlockedError).reason).toBe(expectedReason);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('workspace scoping', () => {
  const canonical = /^[1-9][0-9]*$/;
  const anyWorkspaceId = fc.oneof(
    workspaceIds,
    fc.integer({ min: -1000, max: 10_000 }),
    fc.double(),
    fc.string(),
    fc.stringMatching(/^[0-9]{1,6}$/),
    fc.stringMatching(/^-?0*[0-9]{1,4}([.,e][0-9])?\s?$/),
    fc.constantFrom<unknown>(
      '0',
      '00',
      '007',
      '-1',
      '+5',
      '1.0',
      '1e3',
      ' 12',
      '12 ',
      '١٢',
      'NaN',
      '',
      null,
      0,
      -0,
      2 ** 53,
      1.5,
    ),
  );

  test('WS-1, WS-2: every request carries exactly one workspace_id, a canonical positive decimal integer; anything else is refused before any request', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyWorkspaceId,
        fc.constantFrom('client', 'helper', 'raw'),
        async (workspaceId, where) => {
          const fetch = stubFetch(() => json(200, []));
          const expected =
            typeof workspaceId === 'number'
              ? Number.isSafeInteger(workspaceId) && workspaceId > 0
                ? String(workspaceId)
                : undefined
              : typeof workspaceId === 'string' && canonical.test(workspaceId)
                ? workspaceId
                : undefined;
          let outcome: unknown;
          try {
            const client = createCloudClient({
              environments,
              token: devToken,
              workspaceId: where === 'client' ? (workspaceId as string) : '1042',
              fetch,
            });
            if (where === 'client') await client.listBuckets();
            else if (where === 'helper') await client.listBuckets({ workspaceId: workspaceId as string });
            else
              await client.api.GET('/object-storage/buckets', {
                params: { query: { workspace_id: workspaceId as string } },
              });
            outcome = 'sent';
          } catch (error) {
            outcome = error;
          }
          if (expected === undefined) {
            expect(outcome).toBeInstanceOf(WorkspaceIdError);
            expect(fetch.sent).toHaveLength(0);
          } else {
            expect(outcome).toBe('sent');
            expect(fetch.sent).toHaveLength(1);
            expect(fetch.sent[0]?.url.searchParams.getAll('workspace_id')).toEqual([expected]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('idempotent retries', () => {
  test('IDEM-2: for every run of network failures shorter than the retry bound, all attempts of one VM create or delete carry the same key and byte-identical body; distinct calls get distinct keys', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }).chain((attempts) =>
          fc.record({
            attempts: fc.constant(attempts),
            failures: fc.array(fc.integer({ min: 0, max: attempts - 1 }), { minLength: 1, maxLength: 3 }),
          }),
        ),
        createBodies,
        fc.constantFrom('createCloudVm', 'deleteGpuVm'),
        async ({ attempts, failures }, body, operation) => {
          const remaining = [...failures];
          let failuresLeft = 0;
          const fetch = stubFetch((sent) => {
            if (isPreflight(sent)) return json(200, { allowed: true });
            if (failuresLeft > 0) {
              failuresLeft--;
              return networkFailure();
            }
            return json(202, acceptance);
          });
          const client = createCloudClient({
            environments,
            token: devToken,
            workspaceId: '1042',
            fetch,
            retry: { attempts, baseDelayMs: 0, maxDelayMs: 0 },
          });
          const keysPerCall: string[] = [];
          for (const failureCount of remaining) {
            failuresLeft = failureCount;
            const before = fetch.sent.length;
            if (operation === 'createCloudVm') await client.createCloudVm(body);
            else await client.deleteGpuVm('vm-7f3a9c2e');
            const product = fetch.sent.slice(before).filter((s) => !isPreflight(s));
            expect(product).toHaveLength(failureCount + 1);
            const keys = new Set(product.map((s) => s.headers.get('X-Idempotency-Key')));
            const bodies = new Set(product.map((s) => s.body));
            expect(keys.size).toBe(1);
            expect(bodies.size).toBe(1);
            expect([...bodies][0]).toBe(operation === 'createCloudVm' ? JSON.stringify(body) : '');
            const [key] = keys;
            expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
            keysPerCall.push(key as string);
            // One preflight per create call, however many attempts the create took.
            expect(fetch.sent.slice(before).filter(isPreflight)).toHaveLength(
              operation === 'createCloudVm' ? 1 : 0,
            );
          }
          expect(new Set(keysPerCall).size).toBe(keysPerCall.length);
        },
      ),
      { numRuns: 100 },
    );
  });

  test('IDEM-2: a run of network failures as long as the retry bound stops after exactly that many attempts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), async (attempts) => {
        const fetch = stubFetch(() => networkFailure());
        const client = createCloudClient({
          environments,
          token: devToken,
          workspaceId: '1042',
          fetch,
          retry: { attempts, baseDelayMs: 0 },
        });
        await expect(client.deleteGpuVm('vm-1')).rejects.toBeInstanceOf(NetworkError);
        expect(fetch.sent).toHaveLength(attempts);
      }),
      { numRuns: 20 },
    );
  });
});

describe('token secrecy', () => {
  const tokenBody = fc.stringMatching(/^[A-Za-z0-9]{12,20}$/);
  const tokens = fc.oneof(
    tokenBody.map((body) => `svc_dev_key_${body}`),
    tokenBody.map((body) => `svc_prod_key_${body}`),
    tokenBody.map((body) => `svc_test_key_${body}`),
    tokenBody,
  );
  const echoModes = fc.constantFrom('json-detail', 'text-body', 'throw', 'preflight-echo', 'success');

  function leaks(token: string, value: unknown): boolean {
    const views = [
      inspect(value, { depth: null, showHidden: true, getters: true }),
      JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? String(v) : v)) ?? '',
      String(value),
      value instanceof Error ? `${value.stack}` : '',
    ];
    return views.some((view) => view.includes(token));
  }

  test('AUTH-1 and token secrecy (issue 3): every request carries `Bearer <token>`, and no error, log entry or client object the client creates contains the token', async () => {
    await fc.assert(
      fc.asyncProperty(tokens, echoModes, async (token, mode) => {
        const logs: ClientLogEntry[] = [];
        const echo = (sent: SentRequest) => sent.headers.get('Authorization') ?? '';
        const fetch = stubFetch((sent) => {
          if (mode === 'json-detail')
            return json(401, { detail: `token ${echo(sent)} is invalid`, token: echo(sent) });
          if (mode === 'text-body') return new Response(`bad token ${echo(sent)}`, { status: 502 });
          if (mode === 'throw') throw new Error(`socket closed while sending ${echo(sent)}`);
          if (mode === 'preflight-echo')
            return json(isPreflight(sent) ? 200 : 409, { allowed: echo(sent), detail: echo(sent) });
          return isPreflight(sent) ? json(200, { allowed: true }) : json(202, acceptance);
        });
        const produced: unknown[] = [];
        let client: ReturnType<typeof createCloudClient> | undefined;
        try {
          client = createCloudClient({
            token,
            workspaceId: '1042',
            environments: { production: prodBaseUrl, development: devBaseUrl },
            fetch,
            logger: (entry) => logs.push(entry),
            retry: { attempts: 2, baseDelayMs: 0 },
          });
        } catch (error) {
          produced.push(error);
        }
        if (client) {
          produced.push(client, client.api);
          for (const call of [
            () => client.createCloudVm({ plan_id: 'plan-std-2c-4g' }),
            () => client.listBuckets(),
            () => client.releaseReservedIp('rip-1'),
            () => client.api.GET('/object-storage/buckets'),
            () => client.getCloudVmSnapshotRestore('rst-1', { workspaceId: '0' }),
          ]) {
            produced.push(await call().catch((error: unknown) => error));
          }
          expect(fetch.sent.length).toBeGreaterThan(0);
          for (const sent of fetch.sent) expect(sent.headers.get('Authorization')).toBe(`Bearer ${token}`);
        } else {
          expect(fetch.sent).toHaveLength(0);
        }
        for (const value of [...produced.filter((v) => !(v instanceof Object && 'response' in v)), ...logs]) {
          expect(leaks(token, value), inspect(value)).toBe(false);
        }
      }),
      { numRuns: 120 },
    );
  });
});

describe('environment binding', () => {
  const environments = fc.constantFrom('production', 'development');
  const hosts = fc.constantFrom('api.example.test', 'dev.example.test', '127.0.0.1:8080', 'gateway.internal');
  const versionSuffix = fc.constantFrom('/v1', '/v1/', '/v2', '', '/', '/v10', '/api/v1', '/v1/extra');
  const urls = fc
    .tuple(fc.constantFrom('https://', 'http://'), hosts, versionSuffix)
    .map((parts) => parts.join(''));

  test('ENV-1, ENV-2: every mismatch between the token prefix and the base URL is refused before any request', async () => {
    await fc.assert(
      fc.asyncProperty(
        environments,
        fc.option(urls, { nil: undefined }),
        fc.option(urls, { nil: undefined }),
        fc.constantFrom('none', 'own', 'other', 'custom'),
        urls,
        async (environment, productionUrl, developmentUrl, baseUrlChoice, customBaseUrl) => {
          const fetch = stubFetch(() => json(200, []));
          const token = environment === 'production' ? prodToken : devToken;
          const production = productionUrl ?? prodBaseUrl;
          const development = developmentUrl ?? devBaseUrl;
          const own = environment === 'production' ? production : development;
          const other = environment === 'production' ? development : production;
          const baseUrl =
            baseUrlChoice === 'own'
              ? own
              : baseUrlChoice === 'other'
                ? other
                : baseUrlChoice === 'custom'
                  ? customBaseUrl
                  : undefined;
          const normalise = (url: string) => url.replace(/\/$/, '');
          const endsWithV1 = (url: string) => /\/v1$/.test(normalise(url));
          // The token's own environment must be named: the spec's default host is a placeholder.
          const ownGiven = (environment === 'production' ? productionUrl : developmentUrl) !== undefined;
          const accepted =
            ownGiven &&
            endsWithV1(production) &&
            endsWithV1(development) &&
            normalise(production) !== normalise(development) &&
            (baseUrl === undefined || normalise(baseUrl) === normalise(own));
          let outcome: unknown;
          try {
            const client = createCloudClient({
              token,
              workspaceId: '1042',
              fetch,
              environments: {
                ...(productionUrl === undefined ? {} : { production: productionUrl }),
                ...(developmentUrl === undefined ? {} : { development: developmentUrl }),
              },
              ...(baseUrl === undefined ? {} : { baseUrl }),
            });
            await client.listBuckets();
            // A per-call base URL of the other environment is refused too.
            await client.api
              .GET('/object-storage/buckets', { baseUrl: other })
              .then(() => expect.fail('a per-call base URL of the other environment was sent'))
              .catch((error: unknown) => expect(error).toBeInstanceOf(TokenEnvironmentError));
            outcome = 'sent';
          } catch (error) {
            outcome = error;
          }
          if (accepted) {
            expect(outcome).toBe('sent');
            expect(fetch.sent).toHaveLength(1);
            expect(fetch.sent[0]?.url.href.startsWith(`${normalise(own)}/`)).toBe(true);
          } else {
            expect(fetch.sent).toHaveLength(0);
            expect(outcome instanceof TokenEnvironmentError || outcome instanceof BaseUrlError).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
