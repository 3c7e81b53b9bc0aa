import { describe, expect, it } from 'vitest';
import { findCheck } from '../src/checks/registry.js';
import { runCheck } from '../src/run/checkRunner.js';
import { environmentWith, fakeTransport } from './fakeTarget.js';

const RESTORE = 'rst-0001';
const record = {
  organization_id: 'org-1',
  workspace_id: '1042',
  restore_id: RESTORE,
  source_vm_id: 'vm-1',
  target_mode: 'new_vm',
  recovery_point_id: 'snap-1',
  status: 'queued',
};

/** A restore of workspace 1042; `cachesNotFound`: a 404 elsewhere is kept by id alone and answered everywhere after. */
function restoreTarget(cachesNotFound: boolean) {
  let notFoundSeen = false;
  return fakeTransport((request) => {
    const workspace = request.query.find(([name]) => name === 'workspace_id')?.[1];
    if (!request.path.endsWith(`/restores/${RESTORE}`)) return { status: 404, body: { detail: 'no' } };
    if (workspace !== '1042' || (cachesNotFound && notFoundSeen)) {
      notFoundSeen = true;
      return { status: 404, body: { detail: 'not found' } };
    }
    return { status: 200, body: record };
  });
}

const iso = findCheck(
  "ISO-1 never returns, changes, deletes or releases a primary workspace's resource asked through another workspace",
);

describe('ISO-1: a restore asked through another workspace stays served in its own', () => {
  it.each([
    [false, 'passed'],
    [true, 'failed'],
  ])('a target that caches not-found by id alone: %s gives %s', async (cachesNotFound, state) => {
    const { result } = await runCheck(
      iso ?? expect.fail('ISO-1 is not in the registry'),
      environmentWith(restoreTarget(cachesNotFound), { resources: { restoreIds: [RESTORE] } }),
      new AbortController().signal,
    );
    expect(result.verdict.state).toBe(state);
    if (state === 'failed')
      expect(JSON.stringify(result.verdict)).toMatch(
        /(answered 404 there right after it was asked through workspace 2001|earlier in the run and now answers 404 there)/,
      );
  });
});
