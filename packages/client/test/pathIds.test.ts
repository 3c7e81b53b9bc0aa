import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CloudClient, createCloudClient, InvalidRequestError } from '../src/index.js';
import { devToken, environments, json, stubFetch } from './stubFetch.js';

const answering = () =>
  stubFetch((sent) =>
    sent.method === 'DELETE' && sent.path.includes('reserved-ips')
      ? new Response(null, { status: 204 })
      : json(sent.method === 'DELETE' ? 202 : 200, {}),
  );

const client = (fetch: ReturnType<typeof stubFetch>) =>
  createCloudClient({ environments, token: devToken, workspaceId: '1042', fetch, retry: { attempts: 1 } });

/** Every helper that takes a path id, with the id in each position it can take. */
const callsWithId: readonly [string, (c: CloudClient, id: string) => Promise<unknown>][] = [
  ['getCloudVmSnapshotRestore', (c, id) => c.getCloudVmSnapshotRestore(id)],
  ['deleteGpuVm', (c, id) => c.deleteGpuVm(id)],
  ['enableGpuVmBackups', (c, id) => c.enableGpuVmBackups(id)],
  ['releaseReservedIp', (c, id) => c.releaseReservedIp(id)],
  [
    'updateNatPortForwardingRule vpcId',
    (c, id) =>
      c.updateNatPortForwardingRule({ vpcId: id, natGatewayId: 'ngw-1', portForwardingRuleId: 'pfr-1' }, {}),
  ],
  [
    'updateNatPortForwardingRule natGatewayId',
    (c, id) =>
      c.updateNatPortForwardingRule({ vpcId: 'vpc-1', natGatewayId: id, portForwardingRuleId: 'pfr-1' }, {}),
  ],
  [
    'updateNatPortForwardingRule portForwardingRuleId',
    (c, id) =>
      c.updateNatPortForwardingRule({ vpcId: 'vpc-1', natGatewayId: 'ngw-1', portForwardingRuleId: id }, {}),
  ],
];

/** Where the id lands in the sent path split at `/` (index, segment count), e.g. ['', 'v1', …]. */
const segmentOfId: Record<string, [number, number]> = {
  getCloudVmSnapshotRestore: [5, 6],
  deleteGpuVm: [4, 5],
  enableGpuVmBackups: [4, 7],
  releaseReservedIp: [4, 5],
  'updateNatPortForwardingRule vpcId': [4, 9],
  'updateNatPortForwardingRule natGatewayId': [6, 9],
  'updateNatPortForwardingRule portForwardingRuleId': [8, 9],
};

describe('issue 11 #5: path ids', () => {
  test.each(callsWithId)('%s refuses an empty, "." or ".." id before sending', async (_name, call) => {
    const fetch = answering();
    const c = client(fetch);
    for (const id of ['', '.', '..']) {
      await expect(call(c, id)).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(call(c, id)).rejects.toThrow(/Path parameter \w+ is "\.{0,2}".*Nothing was sent/);
    }
    expect(fetch.sent).toEqual([]);
  });

  test('raw api calls are refused alike, also when the path parameters are left out', async () => {
    const fetch = answering();
    const untyped = client(fetch).api as unknown as {
      GET(path: string, init?: Record<string, unknown>): Promise<unknown>;
      DELETE(path: string, init?: Record<string, unknown>): Promise<unknown>;
    };
    await expect(
      untyped.GET('/compute/cloud-vm-snapshots/restores/{restore_id}', {
        params: { path: { restore_id: '..' } },
      }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(
      untyped.DELETE('/compute/gpu-vms/{vm_id}', { params: { path: { vm_id: '' } } }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(untyped.DELETE('/compute/gpu-vms/{vm_id}', { params: { path: {} } })).rejects.toThrow(
      'Path parameter vm_id is missing',
    );
    await expect(untyped.DELETE('/compute/gpu-vms/{vm_id}')).rejects.toThrow(
      'Path parameter vm_id is missing',
    );
    expect(fetch.sent).toEqual([]);
  });

  test('every other id is sent as exactly one segment that decodes back to the id', async () => {
    const fetch = answering();
    const c = client(fetch);
    const id = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
      .filter((s) => s !== '.' && s !== '..');
    await fc.assert(
      fc.asyncProperty(id, fc.constantFrom(...callsWithId), async (value, [name, call]) => {
        fetch.sent.length = 0;
        await call(c, value);
        const [sent] = fetch.sent;
        const segments = (sent?.path ?? '').split('/');
        const [at, count] = segmentOfId[name] as [number, number];
        expect(segments).toHaveLength(count);
        expect(decodeURIComponent(segments[at] as string)).toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});
