import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/run/engine.js';
import { profileSecrets, scopeNames } from '../src/targetProfile/index.js';
import {
  embeddedSandboxProfile,
  loadSandboxModule,
  startSandboxTarget,
} from '../src/targets/sandboxTarget.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === '.vite') return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('token secrecy', () => {
  it('never prints a token or writes one to a report, even in failure reports', async () => {
    const sandbox = await loadSandboxModule();
    const profile = embeddedSandboxProfile(sandbox.defaultSandboxProfile(), scopeNames());
    // A fault that makes AUTH-1 fail on requests whose Authorization header is the bare token.
    const running = await startSandboxTarget(profile, { fault: 'accept-raw-token' });
    const outDir = mkdtempSync(join(tmpdir(), 'conformance-secrecy-'));
    const printed: string[] = [];
    try {
      const result = await runConformance({
        profile: { ...profile, baseUrl: running.baseUrl },
        depth: 3,
        seed: 5,
        reporters: ['table', 'json', 'junit', 'html', 'har', 'ndjson'],
        outDir,
        print: (text) => printed.push(text),
      });
      expect(result.outcome.rules.find((r) => r.id === 'AUTH-1')?.state).toBe('failed');
    } finally {
      await running.stop();
    }
    const texts = [printed.join('\n'), ...filesUnder(outDir).map((file) => readFileSync(file, 'utf8'))];
    expect(filesUnder(outDir).some((f) => f.includes('replays'))).toBe(true);
    // The evidence files hold every request with its headers, the bare-token ones included.
    for (const name of ['conformance-report.html', 'conformance.har', 'conformance-events.ndjson'])
      expect(
        filesUnder(outDir).some((f) => f.endsWith(name)),
        name,
      ).toBe(true);
    expect(printed.join('\n')).toMatch(/authorization: /);
    for (const secret of profileSecrets(profile)) {
      for (const text of texts)
        expect(text.includes(secret), 'a token (or its body/base64 form) leaked into output').toBe(false);
    }
  });
});
