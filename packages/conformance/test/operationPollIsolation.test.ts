import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import type { ApiRequest } from '../src/transport/exchange.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const keyReuse = findCheck(
  "ISO-1 never answers a key reused in another workspace with the first workspace's operation",
);
const never = new AbortController().signal;

const workspaceOf = (request: ApiRequest) => request.query.find(([name]) => name === 'workspace_id')?.[1];

/**
 * A target whose creates answer a Location to poll: each create starts an operation of its own
 * workspace; the poll serves it in that workspace, and through another one when `leaks`.
 */
function pollingTarget(options: { leaks: boolean; location: boolean }) {
  const operations = new Map<string, string>();
  return fakeTransport((request) => {
    const workspace = workspaceOf(request) ?? '';
    if (request.method === 'POST' && request.path === '/compute/cloud-vms') {
      const id = `op-${operations.size + 1}`;
      operations.set(id, workspace);
      return {
        status: 202,
        body: {
          operation_id: id,
          vm_id: `vm-${id}`,
          status: 'accepted',
          submitted_at: new Date().toISOString(),
        },
        headers: options.location
          ? { location: `/v1/compute/operations/${id}?workspace_id=${workspace}` }
          : {},
      };
    }
    const polled = /^\/compute\/operations\/(op-\d+)$/.exec(request.path)?.[1];
    if (request.method === 'GET' && polled && operations.has(polled)) {
      if (operations.get(polled) !== workspace && !options.leaks)
        return { status: 404, body: { detail: 'no such operation in this workspace' } };
      return { status: 200, body: { operation_id: polled, status: 'running' } };
    }
    return { status: 404, body: { detail: 'not found' } };
  });
}

describe('ISO-1: an operation polled where its create points is not served through another workspace', () => {
  const check = keyReuse ?? expect.fail('the ISO-1 key-reuse check is not in the registry');

  it("fails a poll path that serves the primary workspace's operation through the secondary one", async () => {
    const http = pollingTarget({ leaks: true, location: true });
    const { result } = await runCheck(check, environmentWith(http, { mutations: true }), never);
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.errors.join('\n')).toMatch(
      /operation (op-\d+) of workspace 1042, read where its create's Location points \(\/v1\/compute\/operations\/\1\), was served through workspace 2001/,
    );
  });

  it('passes when the poll path keeps workspaces apart, and sends no poll without a Location', async () => {
    const isolated = pollingTarget({ leaks: false, location: true });
    const first = await runCheck(check, environmentWith(isolated, { mutations: true }), never);
    expect(first.result.verdict).toEqual({ state: 'passed' });
    expect(isolated.sent.filter((r) => r.path.startsWith('/compute/operations/')).map(workspaceOf)).toEqual([
      '1042',
      '2001',
    ]);

    const silent = pollingTarget({ leaks: true, location: false });
    const second = await runCheck(check, environmentWith(silent, { mutations: true }), never);
    expect(second.result.verdict).toEqual({ state: 'passed' });
    expect(silent.sent.some((r) => r.path.startsWith('/compute/operations/'))).toBe(false);
  });
});
