import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { scopeNames, type TargetProfile } from '../src/targetProfile/index.js';
import type { RunningTarget } from '../src/targets/runningTarget.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';

let sandbox: RunningTarget;
let profile: TargetProfile;

beforeAll(async () => {
  const module = await loadSandboxModule();
  const base = embeddedSandboxProfile(module.defaultSandboxProfile(), scopeNames());
  sandbox = await startSandboxTarget(base);
  profile = { ...base, name: 'a real target', baseUrl: sandbox.baseUrl, mutations: true };
});
afterAll(() => sandbox?.stop());

describe('the log of what a run created on a real target, without --out', () => {
  it('is kept in the temporary directory and named, so nobody has to find it', async () => {
    const lines: string[] = [];
    await runConformance({
      profile,
      rules: 'ASYNC-1',
      depth: 2,
      seed: 3,
      reporters: [],
      print: () => undefined,
      progress: (line) => lines.push(line),
    });
    const named = lines
      .map(
        (line) => /What this run created on the target is logged in (\S+) \(kept; pass --out/.exec(line)?.[1],
      )
      .find(Boolean);
    expect(named, lines.join('\n')).toBeDefined();
    expect(existsSync(named as string)).toBe(true);
    expect(readFileSync(named as string, 'utf8')).toMatch(/"kind":"cloud VM"/);
  });
});
