import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import type { ApiRequest } from '../src/transport/exchange.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const consumed = findCheck(
  'ISO-1 a delete or release refused through another workspace leaves the resource to its own workspace',
);
const never = new AbortController().signal;

const workspaceOf = (request: ApiRequest) => request.query.find(([name]) => name === 'workspace_id')?.[1];

/**
 * Reserved IPs of workspace 1042. `removesBeforeCheck`: a release through another workspace
 * deletes the IP, then compares the workspace and answers 404 (DELETE … RETURNING, then the check).
 */
function releasingTarget(removesBeforeCheck: boolean) {
  const ips = new Set(['rip-1', 'rip-2', 'rip-3']);
  return fakeTransport((request) => {
    const id = /^\/networking\/reserved-ips\/(.+)$/.exec(request.path)?.[1];
    if (request.method !== 'DELETE' || !id || !ips.has(id))
      return { status: 404, body: { detail: 'not found' } };
    if (workspaceOf(request) !== '1042') {
      if (removesBeforeCheck) ips.delete(id);
      return { status: 404, body: { detail: 'not found in this workspace' } };
    }
    ips.delete(id);
    return { status: 204 };
  });
}

const profile = {
  mutations: true,
  resources: { releasableReservedIpIds: ['rip-1', 'rip-2', 'rip-3'] },
} as const;

describe('ISO-1: a release refused through another workspace must not have removed the IP', () => {
  const check = consumed ?? expect.fail('the ISO-1 consuming check is not in the registry');

  it('fails, with resources made for the run, a target whose refused release had already removed the IP', async () => {
    const environment = environmentWith(releasingTarget(true), profile);
    const fresh = {
      ...environment,
      session: { ...environment.session, freshResources: 'handed out for this run by a test' },
    };
    const { result } = await runCheck(check, fresh, never);
    expect(result.verdict.state).toBe('failed');
    if (result.verdict.state !== 'failed') return;
    expect(result.verdict.errors.join('\n')).toMatch(
      /reserved IP rip-3 was handed out for this run by a test, and the DELETE of it through workspace 2001 was refused \(404\); then its own workspace 1042 answered 404, while the run's release of another such resource was accepted \(204\)/,
    );
  });

  it("is no verdict with the profile's own resources (an earlier run may have released the IP), and passes a target that kept it", async () => {
    const stale = await runCheck(check, environmentWith(releasingTarget(true), profile), never);
    expect(stale.result.verdict.state).toBe('inconclusive');
    if (stale.result.verdict.state === 'inconclusive')
      expect(stale.result.verdict.reason).toMatch(/an earlier run may have consumed it/);

    const kept = await runCheck(check, environmentWith(releasingTarget(false), profile), never);
    expect(kept.result.verdict).toEqual({ state: 'passed' });
  });
});
