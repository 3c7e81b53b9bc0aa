import { describe, expect, it } from 'vitest';
import { scopeNames } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';
import { type KeptRun, keptRun } from './quietRun.js';

/** WS-4 or WS-5 alone against the sandbox with `fault`. */
async function formsRun(rules: string, fault: string): Promise<KeptRun> {
  const sandbox = await loadSandboxModule();
  const profile = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
  const target = await startSandboxTarget(profile, { fault });
  try {
    return await keptRun({ ...profile, baseUrl: target.baseUrl }, { rules, depth: 3, seed: 3 });
  } finally {
    await target.stop();
  }
}

describe('a workspace_id form served as the workspace', () => {
  it('names every non-canonical spelling the operation served, not only the first (WS-5, a warning)', async () => {
    // Number() reads " 1042", "+1042", "1042.0", "1.042e3" and "0x412" alike.
    const { exitCode, printed } = await formsRun('WS-5', 'workspace-id-number-coercion');
    expect(exitCode).toBe(0);
    const line = printed.split('\n').find((text) => text.includes('[WS-5]')) ?? '';
    const listed = line.match(/Of the non-canonical forms of 1042, it served (.*)$/)?.[1] ?? '';
    for (const spelling of ['"+1042"', '" 1042"', '"1042.0"', '"1.042e3"', '"0x412"'])
      expect(listed, line).toContain(spelling);
  });

  it('names every invalid form served (WS-4, a failure)', async () => {
    // parseInt keeps leading digits: "1042abc", "1042.5x" and "1042,1042" all read as 1042.
    const { exitCode, printed } = await formsRun('WS-4', 'workspace-id-parse-int');
    expect(exitCode).toBe(1);
    const line = printed.split('\n').find((text) => text.includes('[WS-4]')) ?? '';
    expect(line).toMatch(/Of the invalid forms of 1042, it served "[^"]+"(, "[^"]+"){2,}/);
    expect(line).not.toContain('"abc1042"');
  });
});
