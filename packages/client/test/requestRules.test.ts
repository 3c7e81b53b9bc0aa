import { apiOperations } from '@cloud-api/types';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BillingBlockedError, createCloudClient, WorkspaceIdError } from '../src/index.js';
import { findOperation } from '../src/operationIndex.js';
import { queryStringValues, queryValues } from '../src/queryValues.js';
import { requestTargetReader, usualTargetReader } from '../src/requestTarget.js';
import { devToken, environments, json, preflightThen, stubFetch } from './stubFetch.js';

/** Query strings built from the characters that matter to parsing: separators, escapes, `+`. */
const queryStrings = fc
  .array(
    fc.oneof(
      fc.constantFrom('workspace_id', 'workspace%5Fid', 'workspace_i%64', 'workspace+id', 'a', ''),
      fc.constantFrom('=', '&', '+', '%', '%2', '%31', '%2B', '%26', '%3D', '#', '?'),
      fc.stringMatching(/^[0-9a-z_]{0,4}$/),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('queryValues (the per-request workspace_id reader)', () => {
  test('for every query string, it reads the same workspace_id values as URLSearchParams', () => {
    fc.assert(
      fc.property(queryStrings, (query) => {
        const url = `https://dev-api.cloud.invalid/v1/object-storage/buckets?${query}`;
        expect(queryValues(url, 'workspace_id')).toEqual(new URLSearchParams(query).getAll('workspace_id'));
      }),
      { numRuns: 2000 },
    );
  });

  test('a URL without a query string has no values', () => {
    expect(queryValues('https://dev-api.cloud.invalid/v1/object-storage/buckets', 'workspace_id')).toEqual(
      [],
    );
  });
});

const boundBase = 'https://dev-api.cloud.invalid/v1';

/** Route words of the spec, parameter-like values and the pieces that make a path unusual. */
const segmentPiece = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .constantFrom(
        ...new Set(Object.values(apiOperations).flatMap((operation) => operation.path.split('/'))),
      )
      .filter((word) => !word.startsWith('{')),
  },
  { weight: 3, arbitrary: fc.constantFrom('vm-1', 'x', '') },
  fc.constantFrom('.', '..', '%2e', '%2E', '%', '%41', '%2D', 'compute%2Fgpu-vms'),
  fc.constantFrom('#', ' ', '\\', 'é', '@', ':', "'", '*', '?', 'a?b'),
);

/** The segments of a spec route, each parameter given some value and each literal sometimes replaced. */
const routeLikeSegments = fc
  .constantFrom(...Object.values(apiOperations).map((operation) => operation.path))
  .chain((template) =>
    fc.tuple(
      ...template
        .split('/')
        .slice(1)
        .map((segment) =>
          segment.startsWith('{')
            ? segmentPiece
            : fc.oneof({ weight: 8, arbitrary: fc.constant(segment) }, segmentPiece),
        ),
    ),
  );
const anySegments = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: segmentPiece },
    fc.tuple(segmentPiece, segmentPiece).map(([a, b]) => a + b),
  ),
  { maxLength: 7 },
);

/** URLs near the usual request: the bound base or a look-alike, route-like paths, odd queries. */
const nearUsualUrls = fc
  .tuple(
    fc.constantFrom(
      boundBase,
      `${boundBase}x`,
      'https://dev-api.cloud.invalid',
      'https://api.cloud.invalid/v1',
      'https://dev-api.cloud.invalid:444/v1',
    ),
    fc.oneof(routeLikeSegments, anySegments),
    fc.oneof(
      { weight: 3, arbitrary: fc.stringMatching(/^[0-9]{0,3}$/).map((id) => `?workspace_id=${id}`) },
      fc.constant(''),
      queryStrings.map((query) => `?${query}`),
    ),
  )
  .map(([base, segments, query]) => `${base}/${segments.join('/')}${query}`);

const methods = fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', 'PUT');

describe('usualTargetReader (the one-match reading of the usual request)', () => {
  const readUsual = usualTargetReader(boundBase);
  const readTarget = requestTargetReader(boundBase, 'development');

  test('every request it accepts reads the same through the general readers: same path, exactly one canonical workspace_id, same operation', () => {
    let accepted = 0;
    let routed = 0;
    fc.assert(
      fc.property(methods, nearUsualUrls, (method, url) => {
        const usual = readUsual(method, url);
        if (usual === undefined) return;
        accepted++;
        const { path, query } = readTarget(method, url);
        expect(usual.path).toBe(path);
        expect(queryStringValues(query, 'workspace_id')).toEqual([usual.workspaceId]);
        expect(usual.workspaceId).toMatch(/^[1-9][0-9]*$/);
        expect(usual.operation).toBe(findOperation(method, path));
        if (usual.operation !== undefined) routed++;
      }),
      { numRuns: 10_000 },
    );
    // The property says nothing unless the fast reading, and its route, are actually taken.
    console.log(accepted, routed);
    expect(accepted).toBeGreaterThan(300);
    expect(routed).toBeGreaterThan(20);
  });

  test('it reads the requests the helpers send, and leaves the rest to the general readers', () => {
    expect(readUsual('DELETE', `${boundBase}/compute/gpu-vms/vm-1%2F%3F?workspace_id=1042`)).toEqual({
      path: '/compute/gpu-vms/vm-1%2F%3F',
      workspaceId: '1042',
      operation: apiOperations.deleteGpuVm,
    });
    expect(
      readUsual('POST', `${boundBase}/compute/gpu-vms/vm-1/backups/enable?workspace_id=7`)?.operation,
    ).toBe(apiOperations.enableGpuVmBackups);
    expect(
      readUsual('GET', `${boundBase}/compute/gpu-vms/vm-1/backups/enable?workspace_id=7`)?.operation,
    ).toBe(undefined);
    for (const url of [
      `${boundBase}/compute/gpu-vms/../x?workspace_id=1042`,
      `${boundBase}/compute/gpu-vms/%2e%2e?workspace_id=1042`,
      `${boundBase}/object-storage/buckets?workspace_id=01`,
      `${boundBase}/object-storage/buckets?workspace_id=1&workspace_id=2`,
      `${boundBase}x/object-storage/buckets?workspace_id=1`,
      `${boundBase}/object-storage/buckets?workspace_id=1#frag`,
    ]) {
      expect(readUsual('GET', url), url).toBeUndefined();
    }
  });
});

describe('the one request middleware', () => {
  const client = (fetch: ReturnType<typeof stubFetch>) =>
    createCloudClient({
      environments,
      token: devToken,
      workspaceId: '1042',
      fetch,
      retry: { baseDelayMs: 0 },
    });

  // A per-call querySerializer replaces the client's, so only the middleware stands between it
  // and the network: it must read escaped and unescaped queries alike.
  test.each([
    ['no workspace_id', () => 'limit=5'],
    ['two workspace_id values', () => 'workspace_id=1042&workspace_id=77'],
    ['an escaped name with a leading-zero value', () => 'workspace%5Fid=007'],
    ['an escaped value that decodes to zero', () => 'workspace_id=%30'],
  ])(
    'WS-2: refuses a raw call whose own querySerializer sends %s, before any request',
    async (_, serializer) => {
      const fetch = stubFetch(() => json(200, []));
      await expect(
        client(fetch).api.GET('/object-storage/buckets', { querySerializer: serializer }),
      ).rejects.toBeInstanceOf(WorkspaceIdError);
      expect(fetch.sent).toHaveLength(0);
    },
  );

  test('WS-1: sends a raw call whose own querySerializer escapes a canonical workspace_id', async () => {
    const fetch = stubFetch(() => json(200, []));
    await client(fetch).api.GET('/object-storage/buckets', {
      querySerializer: () => 'workspace%5Fid=%31%30',
    });
    expect(fetch.sent.map((sent) => sent.url.searchParams.getAll('workspace_id'))).toEqual([['10']]);
  });

  test('BILL-1: only billable creates wait for the preflight; other requests are sent without one', async () => {
    const fetch = stubFetch(preflightThen({ allowed: true }));
    const c = client(fetch);
    await c.listBuckets();
    await c.deleteGpuVm('gpu-1');
    await c.createCloudVm(
      { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 },
      { workspaceId: 77 },
    );
    expect(fetch.sent.map((sent) => `${sent.method} ${sent.path}${sent.url.search}`)).toEqual([
      'GET /v1/object-storage/buckets?workspace_id=1042',
      'DELETE /v1/compute/gpu-vms/gpu-1?workspace_id=1042',
      'POST /v1/billing/resource-eligibility?workspace_id=77',
      'POST /v1/compute/cloud-vms?workspace_id=77',
    ]);
  });

  test('BILL-2: a raw create with an escaped workspace_id is checked for that workspace and refused when denied', async () => {
    const fetch = stubFetch(preflightThen({ allowed: false }));
    const error = await client(fetch)
      .api.POST('/compute/cloud-vms', {
        body: { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 },
        querySerializer: () => 'workspace%5Fid=%35',
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BillingBlockedError);
    expect(error).toMatchObject({ reason: 'denied', workspaceId: '5' });
    expect(fetch.sent.map((sent) => `${sent.path}${sent.url.search}`)).toEqual([
      '/v1/billing/resource-eligibility?workspace_id=5',
    ]);
  });
});
